import { findPostgresBin, POSTGRES_HINT } from "../../../../../scripts/postgres-bin.ts";

/**
 * For a project whose every test needs a PostgreSQL cluster: where the machine has no PostgreSQL
 * server binaries (the tests' preparation caches the npm registry's build, so that is rare: a platform
 * the registry has no build for, or vitest run without the preparation), the project's tests are all
 * skipped, with one line saying why, and no cluster is started. In CI (CI=true) they run and fail.
 */
export function skipWithoutPostgres(project: string): { testNamePattern: RegExp } | undefined {
  if (process.env.CI === "true" || findPostgresBin() !== null) return undefined;
  console.warn(
    `${project}: every test skipped, PostgreSQL's server binaries were not found: ${POSTGRES_HINT}.`,
  );
  // A pattern no test name matches: every test is skipped, and no file's hooks run.
  return { testNamePattern: /^(?!)/ };
}
