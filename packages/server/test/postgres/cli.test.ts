import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { api, runCli, type ServerProcess, startServerProcess } from "../support/cli-process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newDatabase } from "./support/databases.ts";

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
    const server = await startServerProcess([
      "--db",
      db,
      "--media-dir",
      dir.file("media"),
      "--log-level",
      "warn",
    ]);
    servers.push(server);
    expect(server.output()).toMatch(/database: postgres:\/\/postgres@127\.0\.0\.1:\d+\/cli_/);
    const me = await api(server, key, "GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("ana@example.com");
    const accounts = await api(server, key, "GET", "/accounts");
    expect(accounts.body.data.map((a: { platform: string }) => a.platform)).toEqual(["x"]);
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
    const refused = await runCli(["start", "--port", "0", "--db", db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: cannot open database \S+: the database has schema version 999, newer than the \d+ this server knows; upgrade socialpub-server/,
    );
  });
});
