import { createService, MemoryStore, provisionUser } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { expect, it } from "vitest";

it("createService from the package root answers GET /me for a bearer key, as the README shows", async () => {
  const store = new MemoryStore();
  const { user, apiKey } = await provisionUser(store, { plan: "free", accounts: ["x"] });
  const service = createService({ store, clock: new FakeClock() });
  const res = await service.fetch(
    new Request("http://localhost/api/v1/me", { headers: { authorization: `Bearer ${apiKey}` } }),
  );
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ id: user.id, plan: "free", usage: { api_calls_this_month: 1 } });
});
