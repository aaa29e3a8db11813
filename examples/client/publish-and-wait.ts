// Publishes a post a few seconds from now, waits until the service has published it, then prints where
// it went on each network.
//
//   SOCIALPUB_BASE_URL=http://127.0.0.1:8787/api/v1 SOCIALPUB_API_KEY=sp_test_… \
//     node publish-and-wait.ts "Release 1.2 is out" [seconds-from-now]
import { clientFromEnv, runExample, textNetworks } from "./lib/example-env.ts";

await runExample(async () => {
  const caption = process.argv[2] ?? "Hello from the socialpub client";
  const delaySeconds = Number(process.argv[3] ?? 3);
  await using client = clientFromEnv();

  const platforms = await textNetworks(client);
  const post = await client.posts.create({
    caption,
    platforms,
    schedule_at: Date.now() + delaySeconds * 1000,
  });
  console.log(
    `Scheduled ${post.id} on ${post.platforms.join(", ")} for ${new Date(post.scheduled_at ?? 0).toISOString()}`,
  );

  const published = await client.posts.waitFor(post.id, "published", {
    timeoutMs: 60_000 + delaySeconds * 1000,
  });
  console.log(`Published ${published.id} at ${new Date(published.published_at ?? 0).toISOString()}`);

  const { data: targets } = await client.posts.targets(post.id);
  for (const target of targets) {
    console.log(`  ${target.platform}: ${target.status} ${target.permalink ?? target.error ?? ""}`.trimEnd());
  }
});
