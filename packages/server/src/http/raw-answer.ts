import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/** A JSON error in the service's one shape, `{"error": "…"}`, with the request's id. */
export function jsonError(
  status: number,
  message: string,
  requestId: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...extra },
  });
}

/**
 * Writes a whole HTTP/1.1 response straight to a socket and closes it: for the answers Node's server
 * leaves to us without a ServerResponse (a request its parser refused, CONNECT), so they carry the same
 * JSON body as every other error instead of none.
 */
export async function writeRawAnswer(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}`];
  for (const [name, value] of response.headers) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${body.byteLength}`, "connection: close", "", "");
  if (socket.writable) socket.end(Buffer.concat([Buffer.from(lines.join("\r\n")), body]));
  else socket.destroy();
}
