import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { writeRetrying503 } from "./support/api-retrying.ts";

/*
 * The tests' client for writes to a service under load: a 503 is sent again with the same
 * Idempotency-Key once its Retry-After has passed, a bounded number of times; nothing else is retried.
 */

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** A server answering with `answers` in turn; what it was sent, and when, is kept. */
async function scripted(answers: { status: number; retryAfter?: string }[]) {
  const seen: { key: string | undefined; at: number; body: string }[] = [];
  server = createServer(async (req: IncomingMessage, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.push({ key: req.headers["idempotency-key"] as string | undefined, at: Date.now(), body });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    res.writeHead(answer.status, {
      "content-type": "application/json",
      ...(answer.retryAfter !== undefined && { "retry-after": answer.retryAfter }),
    });
    res.end(JSON.stringify(answer.status === 201 ? { id: "post_1" } : { error: "Database unavailable." }));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server!.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

it("sends a write again after a 503, with the same Idempotency-Key, once Retry-After has passed", async () => {
  const { url, seen } = await scripted([{ status: 503, retryAfter: "1" }, { status: 201 }]);
  const res = await writeRetrying503({ url }, "sp_test_key", "POST", "/posts", { caption: "a" });
  expect(res).toMatchObject({ status: 201, body: { id: "post_1" }, retried: 1 });
  expect(seen).toHaveLength(2);
  expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  expect(seen[1]!.key).toBe(seen[0]!.key);
  expect(seen[1]!.body).toBe(seen[0]!.body);
  expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1000);
});

it("gives up after the retries it is allowed, answering the last 503", async () => {
  const { url, seen } = await scripted([{ status: 503, retryAfter: "0" }]);
  const res = await writeRetrying503({ url }, "sp_test_key", "POST", "/posts", { caption: "a" }, 2);
  expect(res).toMatchObject({ status: 503, retried: 2 });
  expect(seen).toHaveLength(3);
});

it("does not retry any other answer", async () => {
  const { url, seen } = await scripted([{ status: 500 }, { status: 201 }]);
  expect(await writeRetrying503({ url }, "sp_test_key", "POST", "/posts", {})).toMatchObject({
    status: 500,
    retried: 0,
  });
  expect(seen).toHaveLength(1);
});
