// Receives webhook deliveries with node:http, verifies each signature over the raw body, and handles
// each event once (deliveries are retried, so the same event can arrive twice).
//
// With an API key, it registers itself for every event type when it starts (at SOCIALPUB_WEBHOOK_URL,
// or its own local address) and removes that endpoint when stopped with Ctrl-C:
//
//   SOCIALPUB_BASE_URL=http://127.0.0.1:8787/api/v1 SOCIALPUB_API_KEY=sp_test_… PORT=3000 \
//     node receive-webhooks.ts
//
// With the secret of an endpoint registered some other way, it only receives:
//
//   SOCIALPUB_WEBHOOK_SECRET=whsec_… PORT=3000 node receive-webhooks.ts
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { signWebhook, verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@socialpub/core";
import { clientFromEnv, fail, runExample } from "./lib/example-env.ts";

const MAX_BODY_BYTES = 1024 * 1024;
const handled = new Set<string>();
let secret = process.env.SOCIALPUB_WEBHOOK_SECRET?.trim() || undefined;
if (!secret && !process.env.SOCIALPUB_API_KEY) {
  fail(
    "Set SOCIALPUB_API_KEY to register this receiver, or SOCIALPUB_WEBHOOK_SECRET to an endpoint's whsec_… secret.",
  );
}
if (secret) checkSecret(secret);

/**
 * Refuses a malformed secret now, in one line, rather than on the first delivery. Signing decodes the
 * secret as verifying does, and its error says what is wrong without repeating the secret.
 */
function checkSecret(value: string): void {
  try {
    signWebhook("{}", value);
  } catch (error) {
    fail(`SOCIALPUB_WEBHOOK_SECRET cannot be used: ${(error as Error).message}`);
  }
}

const server = createServer(async (req, res) => {
  try {
    await receive(req, res);
  } catch (error) {
    // Never let one delivery take the receiver down: the sender retries a 500 later.
    console.error(`Could not handle a delivery: ${(error as Error).message}`);
    if (!res.headersSent) res.writeHead(500, { connection: "close" });
    res.end();
  }
});

async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  const body = Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES ? null : await readBody(req);
  if (body === null) {
    res.writeHead(413, { connection: "close" }).end();
    return;
  }
  if (!secret) {
    // Registration has not answered yet: the sender retries later.
    res.writeHead(503, { "retry-after": "5" }).end();
    return;
  }
  let event: WebhookEvent;
  try {
    // Verify the bytes exactly as received: parsing first and re-serialising would change them.
    event = verifyWebhook(body, req.headers, secret);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.warn(`Rejected a delivery (${error.reason}): ${error.message}`);
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: error.message }));
    return;
  }
  if (handled.has(event.id)) {
    console.log(`Duplicate ${event.id} ignored`);
  } else {
    handle(event);
    // Only once it is handled: should handling fail, the 500 makes the sender try again.
    handled.add(event.id);
  }
  // Answer quickly with a 2xx; slow work belongs in a queue, or the sender times out and retries.
  res.writeHead(204).end();
}

function handle(event: WebhookEvent): void {
  switch (event.type) {
    case "post.published":
      console.log(
        `${event.type} ${event.id}: ${event.data.post_id} on ${event.data.platform} at ${event.data.permalink}`,
      );
      break;
    case "post.failed":
      console.log(
        `${event.type} ${event.id}: ${event.data.post_id} on ${event.data.platform}: ${event.data.error}`,
      );
      break;
    default:
      console.log(`${event.type} ${event.id}: ${JSON.stringify(event.data)}`);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

await runExample(async () => {
  server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1");
  await once(server, "listening");
  const localUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  console.log(`Listening for webhooks on ${localUrl}`);
  if (secret) return;

  const client = clientFromEnv();
  const endpoint = await client.webhooks.create({ url: process.env.SOCIALPUB_WEBHOOK_URL ?? localUrl });
  secret = endpoint.secret;
  console.log(`Registered ${endpoint.id} for ${endpoint.url} (${endpoint.events.length} event types)`);

  const unregister = async () => {
    server.close();
    await runExample(async () => {
      await client.webhooks.delete(endpoint.id);
      console.log(`Removed ${endpoint.id}`);
    });
    await client.close();
    process.exit(0);
  };
  process.once("SIGINT", unregister);
  process.once("SIGTERM", unregister);
});
