import type { DestinationStream } from "pino";
import { prettyFactory } from "pino-pretty";

/** Keys every line has that a person at a terminal does not need. */
const UNREAD_KEYS = "pid,hostname,service";

/**
 * A destination that turns pino's JSON lines into readable ones (pino-pretty) and hands them to
 * `destination`, the per-turn writer, so a terminal still gets one write per turn. A request reads
 * `GET /api/v1/me 200 1.52 ms req_…`; other events keep their message and fields on the same line, an
 * error its stack below. Redaction happened before (pino redacts while it writes the JSON).
 */
export function prettyDestination(destination: DestinationStream): DestinationStream {
  const prettify = prettyFactory({
    translateTime: "SYS:HH:MM:ss.l",
    ignore: UNREAD_KEYS,
    singleLine: true,
  });
  return {
    write(line: string) {
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line);
      } catch {
        destination.write(line);
        return;
      }
      destination.write(prettify(asReadable(event)));
    },
  };
}

/** A request line's fields said as one message; any other event as it is. */
function asReadable(event: Record<string, unknown>): Record<string, unknown> {
  const { method, path, status, duration_ms, request_id, msg, ...rest } = event;
  if ((msg !== "request" && msg !== "request failed") || typeof method !== "string") return event;
  const said = `${method} ${path} ${status} ${duration_ms} ms ${request_id}`;
  return { ...rest, msg: msg === "request" ? said : `request failed: ${said}` };
}
