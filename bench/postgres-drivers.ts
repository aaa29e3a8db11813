// Compares the two well-kept PostgreSQL drivers for Node, `postgres` (porsager) and `pg`, on the
// statements the server's hottest requests make, against a throwaway cluster in one run:
// - read: the key lookup by hash and the monthly usage upsert every authenticated GET makes;
// - write: a POST /posts transaction (post, creation row, two targets, one event row).
// Each driver gets a pool of 10 and 32 callers at once. Prints operations a second per driver.
//
//   node bench/postgres-drivers.ts           # 4,000 operations of each kind per driver
//   node bench/postgres-drivers.ts --quick   # 400: checks it runs
import pg from "pg";
import postgres from "postgres";
import { startThrowawayCluster } from "../packages/server/test/support/postgres-cluster.ts";

const quick = process.argv.includes("--quick");
const OPERATIONS = quick ? 400 : 4000;
const CALLERS = 32;

const SCHEMA = `
CREATE TABLE api_keys (id text PRIMARY KEY, user_id text NOT NULL, hash text NOT NULL UNIQUE);
CREATE TABLE api_usage (user_id text, month text, calls bigint NOT NULL, PRIMARY KEY (user_id, month));
CREATE TABLE posts (id text PRIMARY KEY, user_id text NOT NULL, caption text NOT NULL, status text NOT NULL, created_at bigint NOT NULL);
CREATE TABLE post_creations (user_id text NOT NULL, post_id text NOT NULL, created_at bigint NOT NULL);
CREATE TABLE targets (post_id text, platform text, text text NOT NULL, PRIMARY KEY (post_id, platform));
CREATE TABLE events (id text PRIMARY KEY, user_id text NOT NULL, data text NOT NULL);
`;

async function timed(run: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < OPERATIONS) await run(next++);
    }),
  );
  return Math.round(OPERATIONS / ((performance.now() - started) / 1000));
}

const cluster = await startThrowawayCluster();
try {
  const results: Record<string, { read: number; write: number }> = {};
  for (const driver of ["postgres", "pg"] as const) {
    const url = await cluster.createDatabase(`drivers_${driver}`);
    const setup = postgres(url, { max: 1, onnotice: () => {} });
    await setup.unsafe(SCHEMA);
    await setup`INSERT INTO api_keys VALUES ('key_1', 'usr_1', 'hash_1')`;
    await setup.end();
    const month = "2026-11";
    if (driver === "postgres") {
      const sql = postgres(url, { max: 10, onnotice: () => {} });
      const read = await timed(async () => {
        await sql`SELECT * FROM api_keys WHERE hash = ${"hash_1"}`;
        await sql`INSERT INTO api_usage VALUES (${"usr_1"}, ${month}, 1)
                  ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + 1 RETURNING calls`;
      });
      const write = await timed(async (i) => {
        await sql.begin(async (tx) => {
          await tx`INSERT INTO posts VALUES (${`post_${i}`}, 'usr_1', 'hello', 'scheduled', ${Date.now()})`;
          await tx`INSERT INTO post_creations VALUES ('usr_1', ${`post_${i}`}, ${Date.now()})`;
          await tx`INSERT INTO targets ${tx([
            { post_id: `post_${i}`, platform: "x", text: "hello" },
            { post_id: `post_${i}`, platform: "bluesky", text: "hello" },
          ])}`;
          await tx`INSERT INTO events VALUES (${`evt_${i}`}, 'usr_1', '{}')`;
        });
      });
      await sql.end();
      results[driver] = { read, write };
    } else {
      const pool = new pg.Pool({ connectionString: url, max: 10 });
      const read = await timed(async () => {
        await pool.query({ name: "key", text: "SELECT * FROM api_keys WHERE hash = $1", values: ["hash_1"] });
        await pool.query({
          name: "usage",
          text: `INSERT INTO api_usage VALUES ($1, $2, 1)
                 ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + 1 RETURNING calls`,
          values: ["usr_1", month],
        });
      });
      const write = await timed(async (i) => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          await client.query({
            name: "post",
            text: "INSERT INTO posts VALUES ($1, 'usr_1', 'hello', 'scheduled', $2)",
            values: [`post_${i}`, Date.now()],
          });
          await client.query({
            name: "creation",
            text: "INSERT INTO post_creations VALUES ('usr_1', $1, $2)",
            values: [`post_${i}`, Date.now()],
          });
          await client.query({
            name: "targets",
            text: "INSERT INTO targets VALUES ($1, 'x', 'hello'), ($1, 'bluesky', 'hello')",
            values: [`post_${i}`],
          });
          await client.query({
            name: "event",
            text: "INSERT INTO events VALUES ($1, 'usr_1', '{}')",
            values: [`evt_${i}`],
          });
          await client.query("COMMIT");
        } finally {
          client.release();
        }
      });
      await pool.end();
      results[driver] = { read, write };
    }
  }
  console.log("driver     reads/s (key lookup + usage upsert)   writes/s (POST /posts transaction)");
  for (const [driver, r] of Object.entries(results)) {
    console.log(
      `${driver.padEnd(10)} ${String(r.read).padStart(8)}                              ${String(r.write).padStart(8)}`,
    );
  }
} finally {
  await cluster.destroy();
}
