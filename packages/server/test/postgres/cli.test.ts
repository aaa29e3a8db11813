import { randomBytes } from "node:crypto";
import { CredentialKeyring, provisionUser, verifyWebhook, webhookBinding } from "@socialpub/core";
import { WebhookReceiver } from "@socialpub/core/testing";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { api, runCli, type ServerProcess, startServerProcess } from "../support/cli-process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newDatabase } from "./support/databases.ts";

const SECRET_KEY = randomBytes(32).toString("base64");
const NO_KEY = {
  SOCIALPUB_SECRET_KEY: "",
  SOCIALPUB_SECRET_KEY_FILE: "",
  SOCIALPUB_PREVIOUS_SECRET_KEYS: "",
};

const servers: ServerProcess[] = [];
const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop("SIGKILL")));
  for (const dir of dirs.splice(0)) dir.remove();
});

async function ok(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await runCli(args, env);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

describe("the CLI on PostgreSQL", () => {
  it("users, keys and accounts commands and `start` share one database given as --db or SOCIALPUB_DB", async () => {
    const db = await newDatabase("cli");
    const created = await ok([
      "users",
      "create",
      "--email",
      "ana@example.com",
      "--name",
      "Ana",
      "--studio",
      "Ana Studio",
      "--db",
      db,
    ]);
    expect(created).toMatch(/^Created user usr_\w+ <ana@example.com>/);
    const key = /sp_test_\w+/.exec(await ok(["keys", "create", "--user", "ana@example.com", "--db", db]))![0];
    await ok(["accounts", "connect", "--user", "ana@example.com", "--platform", "x", "--handle", "ana"], {
      SOCIALPUB_DB: db,
    });
    expect(await ok(["users", "list"], { SOCIALPUB_DB: db })).toContain("ana@example.com");

    const dir = tempDir();
    dirs.push(dir);
    const server = await startServerProcess(
      ["--db", db, "--media-dir", dir.file("media"), "--log-level", "warn"],
      { SOCIALPUB_SECRET_KEY: SECRET_KEY },
    );
    servers.push(server);
    expect(server.output()).toMatch(/database: postgres:\/\/postgres@127\.0\.0\.1:\d+\/cli_/);
    const me = await api(server, key, "GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("ana@example.com");
    const accounts = await api(server, key, "GET", "/accounts");
    expect(accounts.body.data.map((a: { platform: string }) => a.platform)).toEqual(["x"]);
  });

  it("start without a secret key is refused, naming SOCIALPUB_SECRET_KEY: instances of one database must share one key", async () => {
    const db = await newDatabase("nokey");
    const refused = await runCli(["start", "--port", "0", "--db", db], NO_KEY);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /^error: a PostgreSQL database has no data folder to keep a key in, and every instance must have the same one: set SOCIALPUB_SECRET_KEY/,
    );
  });

  it("keys create --live warns that a server on this database would have no secret key, and not when one is set", async () => {
    const db = await newDatabase("livekey");
    await ok([
      "users",
      "create",
      "--email",
      "lea@example.com",
      "--name",
      "Lea",
      "--studio",
      "Lea Studio",
      "--db",
      db,
    ]);
    const create = ["keys", "create", "--live", "--user", "lea@example.com", "--db", db];
    const warned = await runCli(create, NO_KEY);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toMatch(/^API key: sp_live_\S+$/m);
    expect(warned.stderr).toMatch(
      /^warning: a live key's accounts are connected with their credentials sealed by the server's secret key, and a server on this database would have none: a PostgreSQL database has no data folder to keep a key in, .*set SOCIALPUB_SECRET_KEY/,
    );
    expect(warned.stderr.trimEnd().split("\n")).toHaveLength(1);
    await ok(create, { ...NO_KEY, SOCIALPUB_SECRET_KEY: SECRET_KEY });
  });

  it("a webhook secret kept in the clear by an earlier version is sealed once by two instances starting together, and both sign with it", async () => {
    const db = await newDatabase("sealing");
    await ok(["users", "list", "--db", db]);
    const store = await openPostgresStore(db, { poolSize: 1 });
    const receiver = await WebhookReceiver.start();
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    let apiKey: string;
    let userId: string;
    try {
      const made = await provisionUser(store, { email: "old@example.com" });
      apiKey = made.apiKey;
      userId = made.user.id;
      await store.createWebhook({
        id: "wh_plain",
        user_id: userId,
        url: receiver.url,
        events: ["post.published"],
        secret,
        status: "enabled",
        created_at: Date.now(),
      });
    } finally {
      await store.close();
    }
    try {
      const dir = tempDir();
      dirs.push(dir);
      const start = () =>
        startServerProcess(
          ["--db", db, "--media-dir", dir.file("media"), "--log-level", "warn", "--allow-private-urls"],
          { SOCIALPUB_SECRET_KEY: SECRET_KEY },
        );
      const both = await Promise.all([start(), start()]);
      servers.push(...both);
      for (const server of both) {
        expect((await api(server, apiKey, "POST", "/webhooks/wh_plain/test")).status).toBe(202);
      }
      await receiver.waitFor(2);
      for (const delivered of receiver.received) {
        expect(verifyWebhook(delivered.body, delivered.headers, secret).type).toBe("post.published");
      }
      const sql = postgres(db, { max: 1, onnotice: () => {} });
      try {
        const [row] = await sql`SELECT secret FROM webhooks WHERE id = 'wh_plain'`;
        expect(row!.secret).toMatch(/^v1\./);
        expect(
          new CredentialKeyring(Buffer.from(SECRET_KEY, "base64")).open(
            row!.secret,
            webhookBinding(userId, "wh_plain"),
          ),
        ).toBe(secret);
      } finally {
        await sql.end();
      }
    } finally {
      await receiver.close();
    }
  });

  it("a database it cannot reach, and one whose schema is newer than this server, give one line each and no password", async () => {
    const unreachable = await runCli([
      "users",
      "list",
      "--db",
      "postgres://someone:s3cret-password@127.0.0.1:1/nowhere",
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(unreachable.stderr).toMatch(
      /^error: cannot open database postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nowhere: /,
    );
    expect(unreachable.stderr).not.toContain("s3cret-password");

    const db = await newDatabase("newer");
    await ok(["users", "list", "--db", db]);
    const sql = postgres(db, { max: 1, onnotice: () => {} });
    await sql`INSERT INTO socialpub_migrations (version, name) VALUES (999, 'from-the-future')`;
    await sql.end();
    const refused = await runCli(["start", "--port", "0", "--db", db], { SOCIALPUB_SECRET_KEY: SECRET_KEY });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: cannot open database \S+: the database has schema version 999, newer than the \d+ this server knows; upgrade socialpub-server/,
    );
  });
});
