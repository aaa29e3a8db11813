import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { provisionUser, verifyWebhook } from "@socialpub/core";
import { WebhookReceiver } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { serverKeySource } from "../src/live/secret-key.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import {
  api,
  runCli,
  runProgram,
  type ServerProcess,
  startServerProcess,
  TEST_KEY,
} from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const SECRET_KEY_MODULE = fileURLToPath(new URL("../src/live/secret-key.ts", import.meta.url));

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The environment of a server given no key at all, whatever the shell running the tests has set. */
const NO_KEY = {
  SOCIALPUB_SECRET_KEY: "",
  SOCIALPUB_SECRET_KEY_FILE: "",
  SOCIALPUB_PREVIOUS_SECRET_KEYS: "",
};

function folder() {
  const dir = tempDir();
  cleanups.push(dir.remove);
  return dir;
}

async function receiver() {
  const r = await WebhookReceiver.start();
  cleanups.push(() => r.close());
  return r;
}

async function start(db: string, extra: string[] = []): Promise<ServerProcess> {
  const server = await startServerProcess(["--db", db, "--log-level", "warn", ...extra], NO_KEY);
  cleanups.push(() => server.stop("SIGKILL"));
  return server;
}

/** Every byte the database keeps on disk, the write-ahead log included, as text to search. */
function databaseBytes(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".db") || name.endsWith(".db-wal"))
    .map((name) => readFileSync(join(dir, name)).toString("latin1"))
    .join("\n");
}

/** The signing key inside a secret, as base64: what a copy of the database must not hold. */
const keyPart = (secret: string) => secret.slice("whsec_".length);

describe("a server started without a configured secret key", () => {
  it("makes a key file beside the database (0600) and says where, never what; the second start reuses it and webhook secrets made before still sign", async () => {
    const dir = folder();
    const db = dir.file("data.db");
    const keyFile = dir.file("secret-key");
    const hook = await receiver();

    const first = await start(db, ["--dev", "--dev-key", TEST_KEY]);
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, "utf8").trim();
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    const lines = first
      .output()
      .split("\n")
      .filter((line) => line.includes("secret key"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(keyFile);
    expect(lines[0]).toContain("back it up with the database");
    expect(first.output()).not.toContain(key);
    const created = await api(first, TEST_KEY, "POST", "/webhooks", {
      url: hook.url,
      events: ["post.published"],
    });
    expect(created.status).toBe(201);
    const { id, secret } = created.body as { id: string; secret: string };
    expect(await first.stop("SIGTERM")).toBe(0);
    expect(databaseBytes(dir.path)).not.toContain(keyPart(secret));
    // The admin commands given the same database read the same key file.
    const resealed = await runCli(["secrets", "reseal", "--db", db], NO_KEY);
    expect(resealed.stderr).toBe("");
    expect(resealed.stdout).toMatch(/^Resealed 0 webhook signing secrets; 1 already were\.$/m);

    const second = await start(db, ["--dev", "--dev-key", TEST_KEY]);
    expect(readFileSync(keyFile, "utf8").trim()).toBe(key);
    expect(second.output()).not.toMatch(/made one|secret key/);
    const test = await api(second, TEST_KEY, "POST", `/webhooks/${id}/test`);
    expect(test.status).toBe(202);
    await hook.waitFor(1);
    const [delivered] = hook.received;
    expect(verifyWebhook(delivered!.body, delivered!.headers, secret).id).toBe(test.body.id);
  });

  it("a database written before secrets were sealed: the start seals each plaintext secret, deliveries still verify with it, and the file no longer holds it", async () => {
    const dir = folder();
    const db = dir.file("old.db");
    const hook = await receiver();
    const secret = `whsec_${Buffer.from("an endpoint's secret from before sealing!").toString("base64")}`;
    const before = openSqliteStore(db);
    const { apiKey, user } = await provisionUser(before, { email: "old@example.com" });
    await before.createWebhook({
      id: "wh_from_before",
      user_id: user.id,
      url: hook.url,
      events: ["post.published"],
      secret,
      status: "enabled",
      created_at: Date.now(),
    });
    await before.close();
    expect(databaseBytes(dir.path)).toContain(keyPart(secret));

    const server = await start(db, ["--allow-private-urls"]);
    const test = await api(server, apiKey, "POST", "/webhooks/wh_from_before/test");
    expect(test.status).toBe(202);
    await hook.waitFor(1);
    const [delivered] = hook.received;
    expect(verifyWebhook(delivered!.body, delivered!.headers, secret).id).toBe(test.body.id);
    expect(await server.stop("SIGTERM")).toBe(0);

    const after = openSqliteStore(db);
    try {
      expect((await after.getWebhook(user.id, "wh_from_before"))!.secret).toMatch(/^v1\./);
    } finally {
      await after.close();
    }
    expect(databaseBytes(dir.path)).not.toContain(keyPart(secret));
  });

  it("a key file others can read, or one that holds no key, stops the start with what to do", async () => {
    const dir = folder();
    const db = dir.file("data.db");
    const keyFile = dir.file("secret-key");
    writeFileSync(keyFile, `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o644 });
    chmodSync(keyFile, 0o644);
    const open = await runCli(["start", "--port", "0", "--db", db], NO_KEY);
    expect(open.code).toBe(1);
    expect(open.stderr.trim()).toBe(
      `error: the secret key file ${keyFile} can be read by others (mode 644): chmod 600 ${keyFile}`,
    );

    writeFileSync(keyFile, "not a key\n");
    chmodSync(keyFile, 0o600);
    const corrupted = await runCli(["start", "--port", "0", "--db", db], NO_KEY);
    expect(corrupted.code).toBe(1);
    expect(corrupted.stderr.trim().split("\n")).toHaveLength(1);
    expect(corrupted.stderr).toContain(`the secret key file ${keyFile} does not hold a secret key`);
    expect(corrupted.stderr).toContain("backup");
    expect(readFileSync(keyFile, "utf8")).toBe("not a key\n");
  });

  it("a database holding secrets sealed with a configured key is not given a new key when started without it", async () => {
    const dir = folder();
    const db = dir.file("data.db");
    const configured = { SOCIALPUB_SECRET_KEY: Buffer.alloc(32, 9).toString("base64") };
    const first = await startServerProcess(
      ["--db", db, "--log-level", "warn", "--dev", "--dev-key", TEST_KEY],
      {
        ...NO_KEY,
        ...configured,
      },
    );
    cleanups.push(() => first.stop("SIGKILL"));
    expect((await api(first, TEST_KEY, "POST", "/webhooks", { url: "http://127.0.0.1:9/h" })).status).toBe(
      201,
    );
    expect(await first.stop("SIGTERM")).toBe(0);
    expect(existsSync(dir.file("secret-key"))).toBe(false);

    const without = await runCli(["start", "--port", "0", "--db", db], NO_KEY);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(
      /^error: the database holds secrets sealed with a secret key this server was not given, and there is no key file \S+secret-key: .*SOCIALPUB_SECRET_KEY/,
    );
    expect(existsSync(dir.file("secret-key"))).toBe(false);
  });

  it("processes making the key file at the same moment agree on one key: one makes it, the others read it", async () => {
    const dir = folder();
    const db = dir.file("data.db");
    const script = `
      const { serverKeyring } = await import(${JSON.stringify(SECRET_KEY_MODULE)});
      const { keyring, created } = serverKeyring({}, ${JSON.stringify(db)}, { create: true });
      console.log(JSON.stringify({ id: keyring.currentKeyId, created }));`;
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        runProgram(process.execPath, ["--input-type=module", "-e", script], {
          env: { ...process.env, ...NO_KEY },
        }),
      ),
    );
    const made = results.map((r) => JSON.parse(r.stdout) as { id: string; created: boolean });
    expect(new Set(made.map((m) => m.id)).size).toBe(1);
    expect(made.filter((m) => m.created)).toHaveLength(1);
    expect(readdirSync(dir.path)).toEqual(["secret-key"]);
    expect(statSync(dir.file("secret-key")).mode & 0o777).toBe(0o600);
  });

  it("serverKeySource says where the key comes from: configured, the key file beside a SQLite database, or none", () => {
    const dir = folder();
    const db = dir.file("data.db");
    expect(serverKeySource({ key: "k" }, db)).toEqual({ kind: "configured", from: "SOCIALPUB_SECRET_KEY" });
    expect(serverKeySource({ file: "/run/key" }, db)).toEqual({
      kind: "configured",
      from: "--secret-key-file /run/key",
    });
    expect(serverKeySource({}, db)).toEqual({
      kind: "key-file",
      path: dir.file("secret-key"),
      exists: false,
    });
    expect(serverKeySource({}, "postgres://db.example/socialpub")).toMatchObject({
      kind: "none",
      reason: expect.stringContaining("SOCIALPUB_SECRET_KEY"),
    });
    expect(serverKeySource({}, ":memory:").kind).toBe("none");
  });
});
