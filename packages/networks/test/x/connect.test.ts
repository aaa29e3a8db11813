import { NetworkError } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { xAdapter } from "../../src/index.ts";
import { XFake } from "../../src/x/fake/server.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";

/*
 * X's connect against the X fake: the code traded for a grant, then the account read
 * (GET /2/users/me). An account X does not show answers 200 with only `errors`, which the connect
 * says as X said it instead of failing on the missing data.
 */

let fake: XFake;
let adapter: ReturnType<typeof xAdapter>;

beforeAll(async () => {
  fake = await XFake.start();
  const app = fake.addApp();
  fake.signIn(fake.addUser({ username: "ada_ships", followers: 12 }));
  adapter = xAdapter({ apiUrl: fake.url, authorizeUrl: `${fake.url}/i/oauth2/authorize`, ...app });
}, 60_000);

afterAll(() => fake?.close());

describe("x adapter: connect", { timeout: 60_000 }, () => {
  it("keeps the account's id and username from /2/users/me", async () => {
    const credentials = await connectByConsent(adapter, `${fake.url}/i/oauth2/consent`);
    expect(credentials).toMatchObject({ username: "ada_ships", user_id: [...fake.users.keys()][0] });
    expect(fake.specViolations).toEqual([]);
  });

  it("an answer without the account's data fails the connect as retry, saying what X said", async () => {
    fake.meWithoutData = true;
    try {
      const error = await connectByConsent(adapter, `${fake.url}/i/oauth2/consent`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ kind: "retry", status: 200 });
      expect((error as NetworkError).message).toBe(
        "X granted access but did not say which account it is (X said: 200 Forbidden: User has been suspended: [ada_ships].).",
      );
    } finally {
      fake.meWithoutData = false;
    }
    expect(fake.specViolations).toEqual([]);
  });
});
