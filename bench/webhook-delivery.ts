// Webhook delivery from the reference server (SQLite file, delivery worker with its default limits, its
// own process) to a local receiver (its own process) that verifies every signature. The outbox is
// filled before the server starts — post.published events for several users, each with one endpoint on
// the receiver — and the server delivers them as it does after a restart. The rate is counted at the
// receiver (valid signed deliveries per second between the first and the last); the server's RSS is
// sampled through the run. Goals: at least 2 000 signed deliveries/s, and RSS flat (the largest sample
// of the second half of the run at most 10 % above the largest of the first half). The outbox holds
// 80 000 events, about 40 s of delivery at the goal's rate: long enough for V8's heap to reach the size it
// keeps under this load within the first half — a run of 20 s ends while the old generation still grows
// toward its first major collection, which the RSS ratio would read as a leak. The run ends when
// every event is delivered or after 90 s, whichever comes first: on a machine busy with other work the
// figures are then those of the deliveries made (the result says how many of the events that was).
//
//   pnpm bench webhook-delivery [--quick]
import { join } from "node:path";
import { type EventType, type NewEvent, newId } from "../packages/core/src/index.ts";
import { generateWebhookSecret } from "../packages/core/src/keys.ts";
import { openSqliteStore } from "../packages/server/src/index.ts";
import { startChild } from "./lib/child.ts";
import { benchOptions, count } from "./lib/options.ts";
import { report, round } from "./lib/result.ts";
import { createDatabase } from "./lib/seed.ts";
import { startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const RATE_GOAL = 2000;
const FLAT_GOAL = 1.1;
const options = benchOptions();
const ENDPOINTS = 8;
const EVENTS = count(options, 80_000, 2_000);
const DEADLINE_MS = count(options, 90_000, 30_000);
const MB = 1024 * 1024;

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  const users = await createDatabase(dbPath, ENDPOINTS);
  const secrets = users.map(() => generateWebhookSecret());
  const receiver = await startChild(new URL("./lib/webhook-receiver.ts", import.meta.url), [
    JSON.stringify(secrets),
  ]);
  let server: Awaited<ReturnType<typeof startServiceServer>> | undefined;
  try {
    await fillOutbox(dbPath, users, secrets, receiver.url);
    console.log(
      `${EVENTS.toLocaleString("en-US")} events owed to ${ENDPOINTS} endpoints on one local receiver`,
    );
    server = await startServiceServer(dbPath);
    const rss: number[] = [];
    // The JavaScript heap in use, beside RSS: growth in RSS alone may be V8 keeping freed space.
    const heapUsed: number[] = [];
    const deadline = Date.now() + DEADLINE_MS;
    let received = 0;
    while (received < EVENTS && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const stats = await server.stats();
      rss.push(stats.rss);
      heapUsed.push(stats.counters.heap_used ?? 0);
      received = (await receiver.stats()).counters.valid!;
    }
    const { counters } = await receiver.stats();
    const allDelivered = counters.valid! >= EVENTS;
    if (!allDelivered) {
      console.log(
        `  ${counters.valid} of ${EVENTS} delivered within ${DEADLINE_MS / 1000} s: figures of those`,
      );
    }
    if (counters.invalid! > 0) throw new Error(`${counters.invalid} deliveries had a bad signature`);
    const seconds = (counters.last! - counters.first!) / 1000;
    const rate = Math.round((counters.valid! - 1) / seconds);
    const half = Math.floor(rss.length / 2);
    const firstHalf = Math.max(...rss.slice(0, half));
    const secondHalf = Math.max(...rss.slice(half));
    const growth = round(secondHalf / firstHalf, 3);
    console.log(
      `  ${counters.valid!.toLocaleString("en-US")} deliveries in ${round(seconds, 2)} s; RSS ${rss.map((r) => Math.round(r / MB)).join(" ")} MB`,
    );
    report(
      "webhook-delivery",
      options,
      [
        {
          what: `webhook delivery to a local receiver (${ENDPOINTS} endpoints, signatures verified${allDelivered ? "" : `; ${counters.valid!.toLocaleString("en-US")} of ${EVENTS.toLocaleString("en-US")} events within ${DEADLINE_MS / 1000} s`})`,
          figure: rate,
          unit: "deliveries/s",
          baseline: null,
          ratio: null,
          ratio_as: "times",
          goal: `≥ ${RATE_GOAL.toLocaleString("en-US")}/s`,
          met: rate >= RATE_GOAL,
        },
        {
          what: "server RSS while delivering: largest sample of the second half of the run",
          figure: round(secondHalf / MB, 1),
          unit: "MB",
          baseline: { what: "largest of the first half", figure: round(firstHalf / MB, 1), unit: "MB" },
          ratio: growth,
          ratio_as: "times",
          goal: `flat (≤ ${FLAT_GOAL}×)`,
          met: growth <= FLAT_GOAL,
        },
      ],
      {
        events: EVENTS,
        endpoints: ENDPOINTS,
        deliveries: counters.valid,
        all_delivered: allDelivered,
        deadline_s: DEADLINE_MS / 1000,
        distinct_events: counters.distinct,
        seconds: round(seconds, 2),
        rss_samples_mb: rss.map((r) => round(r / MB, 1)),
        heap_used_samples_mb: heapUsed.map((h) => round(h / MB, 1)),
      },
    );
  } finally {
    await stopAll(server, receiver);
  }
});

/** One endpoint per user on the receiver, and EVENTS post.published events spread over the users. */
async function fillOutbox(
  dbPath: string,
  users: { userId: string }[],
  secrets: string[],
  receiverUrl: string,
): Promise<void> {
  const store = openSqliteStore(dbPath);
  try {
    const now = Date.now();
    for (const [i, user] of users.entries()) {
      await store.createWebhook({
        id: newId("wh", now),
        user_id: user.userId,
        url: `${receiverUrl}/hooks/${i}`,
        events: ["post.published"],
        secret: secrets[i]!,
        status: "enabled",
        created_at: now,
      });
    }
    const BATCH = 1000;
    for (let from = 0; from < EVENTS; from += BATCH) {
      const events: NewEvent[] = [];
      for (let i = from; i < Math.min(EVENTS, from + BATCH); i++) {
        const postId = newId("post", now);
        events.push({
          id: newId("evt", now),
          user_id: users[i % users.length]!.userId,
          type: "post.published" satisfies EventType,
          created: Math.floor(now / 1000),
          data: {
            post_id: postId,
            platform: "x",
            status: "published",
            permalink: `https://x.com/bench/status/${1_900_000_000_000_000_000 + i}`,
            metrics: { reach: 0, likes: 0 },
          },
        });
      }
      await store.appendEvents(events);
    }
  } finally {
    await store.close();
  }
}
