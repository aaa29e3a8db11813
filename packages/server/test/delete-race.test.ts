import { provisionUser } from "@socialpub/core";
import { afterEach, describe, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { startServer } from "../src/server.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { expectCleanOutcomes, raceDeletesAgainstScheduler } from "./support/delete-race.ts";
import { tempDir } from "./support/temp-dir.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

describe("DELETE racing the scheduler", () => {
  it("at the due instant, a post is either cancelled and never published, or published and then removed", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = openSqliteStore(dir.file("race.db"));
    const { apiKey, user } = await provisionUser(store, { plan: "studio", accounts: ["x", "bluesky"] });
    const server = await startServer({ port: 0, store, logger: createLogger({ level: "silent" }) });
    const ids = await raceDeletesAgainstScheduler({ server, apiKey, rounds: 5, postsPerRound: 16 });
    // Closing waits for a scheduler run in progress, so every publish attempt has ended.
    await server.close();
    await expectCleanOutcomes(store, user.id, ids);
    await store.close();
  });
});
