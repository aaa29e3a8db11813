// Schedules a post for an exact time, or for the next optimal slot (the hour with the best reported
// engagement on those networks), then lists everything still scheduled. The Idempotency-Key is derived
// from the caption and time, so running the script twice with the same arguments schedules the post
// once.
//
//   SOCIALPUB_BASE_URL=http://127.0.0.1:8787/api/v1 SOCIALPUB_API_KEY=sp_test_… \
//     node schedule.ts "Webinar starts in one hour" [2026-12-01T09:00:00Z | next]
import { createHash } from "node:crypto";
import { clientFromEnv, runExample, textNetworks } from "./lib/example-env.ts";

await runExample(async () => {
  const caption = process.argv[2] ?? "Scheduled with the socialpub client";
  const at = process.argv[3] ?? "next";
  await using client = clientFromEnv();

  const platforms = await textNetworks(client);
  const idempotencyKey = `schedule-${createHash("sha256").update(`${at}\n${caption}`).digest("hex").slice(0, 32)}`;
  const post = await client.schedule({ caption, platforms, at }, { idempotencyKey });
  console.log(
    `Scheduled ${post.id} for ${new Date(post.scheduled_at ?? 0).toISOString()} on ${post.platforms.join(", ")}`,
  );

  console.log("Scheduled posts:");
  for await (const scheduled of client.posts.listAll({ status: "scheduled" })) {
    console.log(
      `  ${scheduled.id}  ${new Date(scheduled.scheduled_at ?? 0).toISOString()}  ${scheduled.caption}`,
    );
  }
});
