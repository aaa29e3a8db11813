// Receives webhook deliveries with node:http, verifies each signature over the raw body, and handles
// each event once (deliveries are retried, so the same event can arrive twice).
//
//   SOCIALPUB_WEBHOOK_SECRET=whsec_… PORT=3000 node receive-webhooks.ts
import { createServer, type IncomingMessage } from "node:http";
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@socialpub/core";
import { fail } from "./lib/example-env.ts";

const MAX_BODY_BYTES = 1024 * 1024;
const secret =
  process.env.SOCIALPUB_WEBHOOK_SECRET ??
  fail("Set SOCIALPUB_WEBHOOK_SECRET to the endpoint's whsec_… secret.");
const port = Number(process.env.PORT ?? 3000);
const handled = new Set<string>();

const server = createServer(async (req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "POST" }).end();
    return;
  }
  const body = Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES ? null : await readBody(req);
  if (body === null) {
    res.writeHead(413, { connection: "close" }).end();
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
    handled.add(event.id);
    handle(event);
  }
  // Answer quickly with a 2xx; slow work belongs in a queue, or the sender times out and retries.
  res.writeHead(204).end();
});

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

server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  const actual = typeof address === "object" && address ? address.port : port;
  console.log(`Listening for webhooks on http://127.0.0.1:${actual}/`);
});
