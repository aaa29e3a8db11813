// GET /posts/{id} over 50 keep-alive connections: the reference server (SQLite file, its own process)
// against bare node:http answering the same post JSON (its own process), measured in the same run.
// Goal: at least 40 % of the bare server's requests per second.
//
//   pnpm bench get-post [--quick]
import { join } from "node:path";
import { compare, ratioOf } from "./lib/compare.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import { report } from "./lib/result.ts";
import { createDatabase, insertPublishedPosts } from "./lib/seed.ts";
import { startBareServer, startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const GOAL = 0.4;
const CONNECTIONS = 50;
const options = benchOptions();
const POSTS_PER_USER = count(options, 100, 10);

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  // A user per connection, each reading one of its own posts.
  const users = await createDatabase(dbPath, CONNECTIONS);
  const postIds = users.map((user) => insertPublishedPosts(dbPath, user.userId, POSTS_PER_USER).at(-1)!);
  const server = await startServiceServer(dbPath);
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    const headers = (i: number) => ({ authorization: `Bearer ${users[i]!.apiKey}` });
    const sample = await fetch(`${server.url}/api/v1/posts/${postIds[0]}`, { headers: headers(0) });
    if (sample.status !== 200) throw new Error(`GET /posts/{id} answered ${sample.status}`);
    bare = await startBareServer(await sample.text());

    console.log(`GET /posts/{id}, ${CONNECTIONS} connections`);
    const result = await compare({
      contenders: [
        { name: "bare node:http", server: bare },
        { name: "socialpub server", server },
      ],
      request: (i) => ({
        method: "GET",
        path: `/api/v1/posts/${postIds[i % CONNECTIONS]}`,
        headers: headers(i % CONNECTIONS),
      }),
      connections: CONNECTIONS,
      seconds: seconds(options, 5),
      warmupSeconds: seconds(options, 2),
      rounds: count(options, 3, 1),
    });
    const ours = result.median["socialpub server"]!;
    const baseline = result.median["bare node:http"]!;
    const ratio = ratioOf(ours.requests_per_s, baseline.requests_per_s);
    report(
      "get-post",
      options,
      [
        {
          what: `GET /posts/{id}, ${CONNECTIONS} connections`,
          figure: ours.requests_per_s,
          unit: "req/s",
          baseline: { what: "bare node:http", figure: baseline.requests_per_s, unit: "req/s" },
          ratio,
          ratio_as: "percent",
          goal: "≥ 40 %",
          met: ratio >= GOAL,
        },
      ],
      { connections: CONNECTIONS, posts_per_user: POSTS_PER_USER, ...result },
    );
  } finally {
    await stopAll(server, bare);
  }
});
