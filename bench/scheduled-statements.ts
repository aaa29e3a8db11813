// The SQLite statements the scheduler runs while 10 000 sandbox posts to three networks fall due at one
// instant, as `pnpm bench scheduler` makes them, and the time spent in each: the service runs in-process
// on a SQLite file opened as the server opens it, and every statement's run/get/all is timed from the
// due time until the last post is published. Prints one line per statement, most time first, per post.
// The companion of publish-statements.ts, for scheduled posts.
//
//   node bench/scheduled-statements.ts [--quick]
import { startBurst } from "./lib/burst.ts";
import { waitFor } from "./lib/observed-store.ts";
import { benchOptions, count } from "./lib/options.ts";
import { printStatementTimes, timeStatements } from "./lib/statement-timer.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const options = benchOptions();
const POSTS = count(options, 10_000, 500);
const timer = timeStatements();

await withTempDir(async (dir) => {
  const { dueAt, publishedAt, close } = await startBurst(dir, POSTS);
  try {
    await waitFor(() => Date.now() >= dueAt, 5_000);
    timer.on = true;
    const cpu = process.threadCpuUsage();
    if (!(await waitFor(() => publishedAt.size === POSTS, 60_000))) {
      throw new Error(`only ${publishedAt.size} of ${POSTS} posts were published within a minute`);
    }
    const used = process.threadCpuUsage(cpu);
    timer.on = false;
    printStatementTimes(timer.times, POSTS, used, "scheduled post", `${POSTS} posts due at one instant`);
  } finally {
    await close();
  }
});
