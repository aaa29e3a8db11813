import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type CreatePostInput,
  type PlatformId,
  type ScheduleInput,
  SocialPublishClient,
} from "../../src/client/index.ts";
import type { NetworkId } from "../../src/contract/networks.ts";
import { silentLogger } from "../../src/logger.ts";
import { provisionUser } from "../../src/provision.ts";
import { createService } from "../../src/service/create-service.ts";
import { MemoryStore } from "../../src/store/memory.ts";

// The type assertions are checked by `pnpm typecheck`.
describe("platforms in client inputs", () => {
  it("names the network ids (for autocomplete) and still takes any string", () => {
    type Element = CreatePostInput["platforms"][number];
    // Each network id stays a member of its own, which is what editors offer as completions.
    expectTypeOf<Extract<Element, NetworkId>>().toEqualTypeOf<NetworkId>();
    expectTypeOf<Extract<ScheduleInput["platforms"][number], NetworkId>>().toEqualTypeOf<NetworkId>();
    expectTypeOf<"x">().toExtend<PlatformId>();
    expectTypeOf<"mastodon">().toExtend<PlatformId>();
    expectTypeOf<string>().toExtend<PlatformId>();
    expectTypeOf<number>().not.toExtend<PlatformId>();
    expectTypeOf<readonly ["x", "bluesky"]>().toExtend<CreatePostInput["platforms"]>();
  });

  it("sends ids the service does not know, which it ignores", async () => {
    const store = new MemoryStore();
    const service = createService({ store, logger: silentLogger });
    const { apiKey } = await provisionUser(store, { accounts: ["x", "bluesky"] });
    const client = new SocialPublishClient({
      apiKey,
      baseUrl: "http://localhost/api/v1",
      fetch: service.fetch,
      maxRetries: 0,
    });
    const networks = ["x", "mastodon", "bluesky"] as const;
    const post = await client.posts.create({ caption: "Hello", platforms: networks });
    expect(post.platforms).toEqual(["x", "bluesky"]);
    // @ts-expect-error platforms are strings
    await expect(client.posts.create({ caption: "Hello", platforms: [1] })).rejects.toThrow(/platforms/);
    await store.close();
  });
});
