// scratch: in-process cost of service.fetch per call (not committed)

import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createService } from "../packages/core/src/index.ts";
import { openSqliteStore } from "../packages/server/src/index.ts";
import { BENCH_NETWORKS, createDatabase, insertPublishedPosts } from "./lib/seed.ts";

const dir = mkdtempSync(join(tmpdir(), "micro-"));
const db = join(dir, "b.db");
const users = await createDatabase(db, 4);
const ids = users.map((u) => insertPublishedPosts(db, u.userId, 200).at(-1)!);
const store = openSqliteStore(db, { checkpointInBackground: true });
const service = createService({
  store,
  rateLimit: false,
  logger: { info() {}, warn() {}, error() {}, debug() {} } as never,
});
const which = process.argv[2] ?? "get";
const N = Number(process.argv[3] ?? 20000);
const mk = (i: number) => {
  const u = users[i % 4]!;
  const headers = { authorization: `Bearer ${u.apiKey}` };
  if (which === "get") return new Request(`http://x/api/v1/posts/${ids[i % 4]}`, { headers });
  if (which === "list") return new Request(`http://x/api/v1/posts?limit=100`, { headers });
  if (which === "me") return new Request(`http://x/api/v1/me`, { headers });
  return new Request(`http://x/api/v1/posts`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({
      caption: "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
      platforms: BENCH_NETWORKS,
    }),
  });
};
async function run(n: number) {
  const c = 8;
  let i = 0;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (i < n) {
        const r = await service.fetch(mk(i++));
        if (r.status >= 300) throw new Error(`${r.status} ${await r.text()}`);
        await r.text();
      }
    }),
  );
}
await run(Math.min(N, 3000));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await run(N);
const cpu = process.cpuUsage(cpu0);
const t = performance.now() - t0;
console.log(
  `${which}: ${((cpu.user + cpu.system) / N).toFixed(1)} µs CPU/call, ${((t * 1000) / N).toFixed(1)} µs wall/call`,
);
await store.close();
