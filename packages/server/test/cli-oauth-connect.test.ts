import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { provisionUser } from "@socialpub/core/testing";
import { XFake } from "@socialpub/networks/x/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { runCli, startServerProcess } from "./support/cli-process.ts";
import { FrontProxy } from "./support/front-proxy.ts";
import { tempDir } from "./support/temp-dir.ts";
import { grantOnXConsentPage } from "./support/x-consent.ts";

/*
 * `accounts connect --live --platform x`: X connects through its own page, so the command takes no
 * secret; it keeps the pending connect in the database and prints the authorize URL. A person opens it
 * (the X fake's consent page), and the server running on that database at SOCIALPUB_PUBLIC_URL
 * finishes the connect at its callback.
 */

const EMAIL = "ana@example.com";
const SECRET_KEY = randomBytes(32).toString("base64");
const SLOW = { timeout: 300_000 };

let x: XFake;
let front: FrontProxy;
let app: ReturnType<XFake["addApp"]>;
const dir = tempDir();
const db = dir.file("oauth.db");
const printed: string[] = [];

const xEnv = () => ({
  SOCIALPUB_SECRET_KEY: SECRET_KEY,
  SOCIALPUB_PUBLIC_URL: front.url,
  SOCIALPUB_X_API_URL: x.url,
  SOCIALPUB_X_AUTH_URL: `${x.url}/i/oauth2/authorize`,
  SOCIALPUB_X_CLIENT_ID: app.clientId,
  SOCIALPUB_X_CLIENT_SECRET: app.clientSecret,
});

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const result = await runCli([...args, "--db", db], env);
  printed.push(result.stdout, result.stderr);
  return result;
}

const connectX = (...rest: string[]) => [
  "accounts",
  "connect",
  "--live",
  "--user",
  EMAIL,
  "--platform",
  "x",
  ...rest,
];

beforeAll(async () => {
  [x, front] = await Promise.all([XFake.start(), FrontProxy.start()]);
  app = x.addApp();
  x.signIn(x.addUser({ username: "ana_ships", followers: 77 }));
  const store = openSqliteStore(db);
  await provisionUser(store, { email: EMAIL, accounts: [], plan: "studio" });
  await store.close();
}, 60_000);

afterAll(async () => {
  await Promise.all([x?.close(), front?.close()]);
  dir.remove();
});

describe("accounts connect --live for an OAuth network", () => {
  it("names the settings a server without X's app lacks, and refuses credential flags", SLOW, async () => {
    const bare = await cli(connectX(), {
      SOCIALPUB_SECRET_KEY: SECRET_KEY,
      SOCIALPUB_PUBLIC_URL: "",
      SOCIALPUB_X_CLIENT_ID: "",
      SOCIALPUB_X_CLIENT_SECRET: "",
    });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(
      /SOCIALPUB_PUBLIC_URL and SOCIALPUB_X_CLIENT_ID and SOCIALPUB_X_CLIENT_SECRET/,
    );
    expect(bare.stdout).toBe("");

    const handle = await cli(connectX("--handle", "ana_ships"), xEnv());
    expect(handle.code).toBe(1);
    expect(handle.stderr).toMatch(/--handle does not apply to x: it connects through its own page/);

    const board = await cli(connectX("--board", "Recipes"), xEnv());
    expect(board.code).toBe(1);
    expect(board.stderr).toMatch(/--board applies to pinterest only/);

    // Reddit's subreddit, chosen at connect, reaches Reddit's adapter, which checks it.
    const redditEnv = {
      ...xEnv(),
      SOCIALPUB_REDDIT_CLIENT_ID: "reddit-app",
      SOCIALPUB_REDDIT_CLIENT_SECRET: "reddit-secret",
    };
    const reddit = (...rest: string[]) => [
      "accounts",
      "connect",
      "--live",
      "--user",
      EMAIL,
      "--platform",
      "reddit",
      ...rest,
    ];
    const badSubreddit = await cli(reddit("--subreddit", "not a name!"), redditEnv);
    expect(badSubreddit.code).toBe(1);
    expect(badSubreddit.stderr).toMatch(/subreddit must be a subreddit's name/);
    const goodSubreddit = await cli(reddit("--subreddit", "r/socialpub"), redditEnv);
    expect(goodSubreddit.stderr).toBe("");
    expect(goodSubreddit.stdout).toMatch(/open this address in a browser/);

    // Facebook's Page, chosen at connect, is Facebook's alone; the Page is looked for at the callback.
    const page = await cli(connectX("--page", "My Bakery"), xEnv());
    expect(page.code).toBe(1);
    expect(page.stderr).toMatch(/--page applies to facebook only/);
    const facebook = await cli(
      ["accounts", "connect", "--live", "--user", EMAIL, "--platform", "facebook", "--page", "My Bakery"],
      { ...xEnv(), SOCIALPUB_FACEBOOK_CLIENT_ID: "fb-app", SOCIALPUB_FACEBOOK_CLIENT_SECRET: "fb-secret" },
    );
    expect(facebook.stderr).toBe("");
    expect(facebook.stdout).toMatch(/To connect a live facebook account .* open this address in a browser/);

    const noKey = await cli(connectX(), { ...xEnv(), SOCIALPUB_SECRET_KEY: "" });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/SOCIALPUB_SECRET_KEY/);
  });

  it(
    "prints the authorize URL; granting access on X's page connects the account on the server",
    SLOW,
    async () => {
      const started = await cli(connectX(), xEnv());
      expect(started.stderr).toBe("");
      expect(started.code).toBe(0);
      const authorizeUrl = started.stdout.split("\n").find((line) => line.startsWith(x.url))!;
      const url = new URL(authorizeUrl);
      expect(url.pathname).toBe("/i/oauth2/authorize");
      expect(url.searchParams.get("redirect_uri")).toBe(`${front.url}/api/v1/accounts/callback/x`);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(started.stdout).toMatch(/open this address in a browser signed in to that account/);
      expect(started.stdout).toMatch(/before \d{4}-\d\d-\d\dT/);

      const server = await startServerProcess(["--db", db], xEnv());
      try {
        front.target = new URL(server.url);
        const page = await grantOnXConsentPage(authorizeUrl);
        expect(page.status, page.html).toBe(200);
        expect(page.html).toMatch(/@ana_ships is connected/);
      } finally {
        await server.stop();
      }
      const list = await cli(["accounts", "list", "--user", EMAIL], {});
      expect(list.stdout).toBe("x  @ana_ships  live  77 followers  healthy\n");
    },
  );

  it(
    "takes the same settings from a config file: --config for the command, SOCIALPUB_CONFIG for the server",
    SLOW,
    async () => {
      const config = dir.file("socialpub.json");
      writeFileSync(
        config,
        JSON.stringify({
          public_url: front.url,
          networks: {
            x: {
              client_id: app.clientId,
              client_secret: app.clientSecret,
              api_url: x.url,
              auth_url: `${x.url}/i/oauth2/authorize`,
            },
          },
        }),
        { mode: 0o600 },
      );
      const onlyKey = { SOCIALPUB_SECRET_KEY: SECRET_KEY };
      const started = await cli(connectX("--config", config), onlyKey);
      expect(started.stderr).toBe("");
      const authorizeUrl = started.stdout.split("\n").find((line) => line.startsWith(x.url))!;
      expect(new URL(authorizeUrl).searchParams.get("redirect_uri")).toBe(
        `${front.url}/api/v1/accounts/callback/x`,
      );

      const server = await startServerProcess(["--db", db], { ...onlyKey, SOCIALPUB_CONFIG: config });
      try {
        front.target = new URL(server.url);
        const page = await grantOnXConsentPage(authorizeUrl);
        expect(page.status, page.html).toBe(200);
        expect(page.html).toMatch(/@ana_ships is connected/);
        printed.push(server.output());
      } finally {
        await server.stop();
      }

      // A variable that is set wins over the file: here, an X app the fake does not know.
      const overridden = await cli(connectX("--config", config), {
        ...onlyKey,
        SOCIALPUB_X_CLIENT_ID: "other-app",
      });
      const other = overridden.stdout.split("\n").find((line) => line.startsWith(x.url))!;
      expect(new URL(other).searchParams.get("client_id")).toBe("other-app");
    },
  );

  it("never printed X's client secret", () => {
    expect(printed.join("\n")).not.toContain(app.clientSecret);
  });
});
