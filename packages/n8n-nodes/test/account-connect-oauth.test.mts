import { randomBytes } from "node:crypto";
import { CredentialKeyring, createService, MemoryStore, provisionUser, silentLogger } from "@socialpub/core";
import { xAdapter } from "@socialpub/networks";
import { XFake } from "@socialpub/networks/x/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { N8nHttp } from "./support/http.mts";
import { pressAuthorize } from "./support/live-x.mts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";

/*
 * Account → Connect with a live key for a network that connects through its own page: the node outputs
 * where to send the person (authorize_url, state, expires_at), and granting access there connects the
 * account. The reference service runs in this process with the real X adapter talking to the X fake
 * (validated against X's API description); the fake's consent page is driven as a browser does.
 */

const LIVE_KEY = `sp_live_${"N8nAccountConnectOAuth0123456789".repeat(2)}`;
const PUBLIC_URL = "http://service.test";

let x: XFake;
let app: ReturnType<XFake["addApp"]>;

beforeAll(async () => {
  x = await XFake.start();
  app = x.addApp();
  x.signIn(x.addUser({ username: "n8n_ships", followers: 12 }));
});

afterAll(async () => {
  await x?.close();
});

/** The service with X live, set up (`configured`) or lacking its app's settings. */
async function liveService(configured: boolean) {
  const store = new MemoryStore();
  const service = createService({
    store,
    logger: silentLogger,
    rateLimit: false,
    publicUrl: PUBLIC_URL,
    credentialKeyring: new CredentialKeyring(randomBytes(32)),
    liveAdapters: {
      x: xAdapter({
        apiUrl: x.url,
        authorizeUrl: `${x.url}/i/oauth2/authorize`,
        ...(configured
          ? { clientId: app.clientId, clientSecret: app.clientSecret, missingSettings: [] }
          : { missingSettings: ["SOCIALPUB_X_CLIENT_ID", "SOCIALPUB_X_CLIENT_SECRET"] }),
      }),
    },
  });
  await service.start();
  await provisionUser(store, { plan: "studio", accounts: [], key: LIVE_KEY });
  const http = new N8nHttp((request) => service.fetch(request));
  const run = (parameters: Record<string, unknown>) =>
    runSocialPublish({
      http,
      credentials: { apiKey: LIVE_KEY, baseUrl: `${PUBLIC_URL}/api/v1` },
      parameters,
    });
  const close = async () => {
    await service.close();
    await store.close();
  };
  return { service, http, run, close };
}

describe("Account → Connect with a live key, for a network that connects through its own page", () => {
  it("outputs the authorize URL, state and expiry; granting access there connects the account", async () => {
    const live = await liveService(true);
    try {
      const { output } = await live.run({ resource: "account", operation: "connect", platform: "x" });
      expect(output).toHaveLength(1);
      const started = output[0]!.json as Record<string, string>;
      expect(Object.keys(started).sort()).toEqual(["authorize_url", "expires_at", "platform", "state"]);
      expect(started.platform).toBe("x");
      const url = new URL(started.authorize_url!);
      expect(url.origin + url.pathname).toBe(`${x.url}/i/oauth2/authorize`);
      expect(url.searchParams.get("redirect_uri")).toBe(`${PUBLIC_URL}/api/v1/accounts/callback/x`);
      expect(url.searchParams.get("state")).toBe(started.state);
      const minutes = (Date.parse(started.expires_at!) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(14);
      expect(minutes).toBeLessThanOrEqual(15);
      expect(output[0]!.pairedItem).toEqual({ item: 0 });
      expect(live.http.to("POST", "/accounts/connect")[0]!.headers["idempotency-key"]).toMatch(/^n8n-/);

      // X sends the browser to the server's callback, which connects the account.
      const callback = await pressAuthorize(started.authorize_url!);
      expect(callback.startsWith(`${PUBLIC_URL}/api/v1/accounts/callback/x?`)).toBe(true);
      const page = await live.service.fetch(new Request(callback));
      expect(page.status, await page.clone().text()).toBe(200);

      const accounts = await live.run({ resource: "account", operation: "getAll" });
      expect(accounts.output.map((item) => item.json)).toEqual([
        { platform: "x", handle: "@n8n_ships", followers: 12, health: "healthy" },
      ]);
      expect(JSON.stringify(output)).not.toContain(app.clientSecret);
    } finally {
      await live.close();
    }
  });

  it("sends Reddit's subreddit and Pinterest's board, chosen at connect, and only to their network", async () => {
    const live = await liveService(true);
    try {
      const connect = (parameters: Record<string, unknown>) =>
        live.run({ resource: "account", operation: "connect", handle: "", ...parameters });
      // Neither network is set up here: the service names what it lacks, after the body was sent.
      await expect(
        connect({ platform: "reddit", subreddit: " r/socialpub ", board: "Recipes" }),
      ).rejects.toThrow(/Reddit cannot be connected/);
      await expect(connect({ platform: "pinterest", board: "Recipes", subreddit: "x" })).rejects.toThrow(
        /cannot be connected/,
      );
      await connect({ platform: "x", board: "Recipes", subreddit: "socialpub" });
      expect(live.http.to("POST", "/accounts/connect").map((request) => request.body)).toEqual([
        { platform: "reddit", subreddit: "r/socialpub" },
        { platform: "pinterest", board: "Recipes" },
        { platform: "x" },
      ]);
    } finally {
      await live.close();
    }
  });

  it("fails with the service's words naming the settings a server not set up for X lacks", async () => {
    const live = await liveService(false);
    try {
      const error = await failSocialPublish({
        http: live.http,
        credentials: { apiKey: LIVE_KEY, baseUrl: `${PUBLIC_URL}/api/v1` },
        parameters: { resource: "account", operation: "connect", platform: "x" },
      });
      expect(error.message).toMatch(/X cannot be connected on this server yet/);
      expect(`${error.message} ${String(error.description ?? "")}`).toMatch(
        /SOCIALPUB_X_CLIENT_ID and SOCIALPUB_X_CLIENT_SECRET/,
      );
    } finally {
      await live.close();
    }
  });
});
