import { randomBytes } from "node:crypto";
import { generateApiKey, provisionUser } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { api, type ServerProcess, startServerProcess } from "../support/cli-process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newDatabase } from "./support/databases.ts";

/*
 * Two server processes on one PostgreSQL database, over real HTTP: a key made through one works on the
 * other at once, and a key revoked through one (the calling key itself included) is refused by the
 * other on its very next call.
 */

let db: string;
let store: PostgresStore;
let servers: ServerProcess[] = [];
const dir = tempDir();
// The instances share one secret key, as a PostgreSQL deployment must.
const secretKey = randomBytes(32).toString("base64");

beforeAll(async () => {
  db = await newDatabase("keys");
  store = await openPostgresStore(db, { poolSize: 2 });
  servers = [];
  for (let i = 0; i < 2; i++) {
    servers.push(
      await startServerProcess(["--db", db, "--media-dir", dir.file(`media-${i}`), "--log-level", "error"], {
        SOCIALPUB_SECRET_KEY: secretKey,
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await store?.close();
  dir.remove();
});

describe("API keys on two instances of one PostgreSQL database", () => {
  it("a key made on one works on the other; revoked on one, it is refused by the other at once", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const owner = await provisionUser(store, { plan: "creator", key: generateApiKey("live") });
    const made = await api(a, owner.apiKey, "POST", "/keys", { mode: "test", name: "worker" });
    expect(made.status).toBe(201);
    expect((await api(b, made.body.key, "GET", "/me")).status).toBe(200);
    const listed = await api(b, owner.apiKey, "GET", "/keys");
    expect(listed.body.data.map((k: { name: string | null }) => k.name)).toEqual([null, "worker"]);

    expect((await api(a, owner.apiKey, "DELETE", `/keys/${made.body.id}`)).status).toBe(200);
    const refused = await api(b, made.body.key, "GET", "/me");
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: "Invalid or revoked API key." });

    // The calling key revokes itself on b; a refuses it next.
    const own = listed.body.data.find((k: { name: string | null }) => k.name === null);
    expect((await api(b, owner.apiKey, "DELETE", `/keys/${own.id}`)).status).toBe(200);
    expect((await api(a, owner.apiKey, "GET", "/keys")).status).toBe(401);
  });
});
