import { afterEach } from "vitest";
import { type ServerProcess, startServerProcess, TEST_KEY } from "./cli-process.ts";
import { tempDir } from "./temp-dir.ts";

/**
 * Dev servers in child processes for one test file: `start(db)` runs `start --dev` with the shared test
 * key on that database, `databaseFile(name)` gives a path in a folder of its own. After each test every
 * server still running is killed and the folders are removed, whatever the test did.
 */
export function useDevServers(): {
  start(db: string): Promise<ServerProcess>;
  databaseFile(name: string): string;
} {
  const dirs: ReturnType<typeof tempDir>[] = [];
  const servers: ServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop("SIGKILL")));
    for (const dir of dirs.splice(0)) dir.remove();
  });
  return {
    async start(db) {
      const server = await startServerProcess([
        "--dev",
        "--dev-key",
        TEST_KEY,
        "--db",
        db,
        "--log-level",
        "warn",
      ]);
      servers.push(server);
      return server;
    },
    databaseFile(name) {
      const dir = tempDir();
      dirs.push(dir);
      return dir.file(name);
    },
  };
}
