import type { IncomingMessage } from "node:http";

/** The body grew past the limit while it was being read. */
export class BodyTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`Request body is larger than the ${limit}-byte limit.`);
    this.name = "BodyTooLargeError";
    this.limit = limit;
  }
}

/**
 * The request body as a web stream that reads from the socket only when the consumer pulls (so a slow
 * handler holds back the client), and errors as soon as more than `limit` bytes have arrived — a body
 * without Content-Length cannot slip past the limit.
 */
export function limitedBodyStream(
  message: IncomingMessage,
  limit: number,
  onTooLarge: () => void,
): ReadableStream<Uint8Array> {
  const chunks = message[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let received = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) {
          controller.close();
          return;
        }
        received += value.byteLength;
        if (received > limit) {
          onTooLarge();
          // Not returned: that would destroy the request, and its socket with the 413 still to send.
          controller.error(new BodyTooLargeError(limit));
          return;
        }
        controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
