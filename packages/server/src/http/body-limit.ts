import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * After an answer that closes the connection, how much more of the request is read and thrown away,
 * and for how long, before the connection is cut: enough for a client still sending a body a little
 * over the limit to finish and read the answer, not enough to keep a server busy for a sender that
 * never stops.
 */
export const LINGER_BYTES = 8 * 1024 * 1024;
export const LINGER_MS = 5_000;

/** What the adapter learns about a request's body while the handler reads it (or does not). */
export interface BodyWatch {
  /** The handler tried to read a body larger than the limit: the answer is 413 whatever it says. */
  overflowed: boolean;
  /** Part of the body was never read (too large, or not asked for): the connection closes after the answer. */
  readonly tooLarge: boolean;
}

type Push = IncomingMessage["push"];

/**
 * Counts the request body as Node's parser hands it to the request, without reading it: the handler
 * reads (or never reads) the body when it wants, so a request it refuses from its headers — no key, an
 * unknown path — is answered without its body being held. Once more than `limit` bytes have arrived,
 * the request ends there for whoever reads it (the bytes past the limit included, so a reader counting
 * them sees the excess) and everything after is read and thrown away, up to `LINGER_BYTES`, then the
 * connection is cut. A body declared larger than the limit is never handed over: a handler that reads
 * it gets at once the end of an empty body, and `overflowed` is set.
 */
export function watchBody(req: IncomingMessage, limit: number, declaredTooLarge: boolean): BodyWatch {
  const watch = { overflowed: false, tooLarge: declaredTooLarge };
  const push: Push = req.push;
  // Ended here, the request would otherwise be destroyed at its end, and its socket with it (the body
  // is not complete), before the answer is written.
  const endEarly = (message: IncomingMessage) => {
    (message as IncomingMessage & { _readableState: { autoDestroy: boolean } })._readableState.autoDestroy =
      false;
    return push.call(message, null);
  };
  let size = 0;
  let ended = declaredTooLarge;
  let discarded = 0;
  req.push = function (this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (ended) {
      if (chunk !== null) {
        discarded += (chunk as Buffer).byteLength;
        if (discarded > LINGER_BYTES) this.socket.destroy();
      }
      // Discarded: the parser keeps reading, so a client still sending is not blocked (or reset).
      return true;
    }
    if (chunk !== null) {
      size += (chunk as Buffer).byteLength;
      if (size > limit) {
        ended = true;
        watch.overflowed = true;
        watch.tooLarge = true;
        push.call(this, chunk, encoding);
        return endEarly(this);
      }
    }
    return push.call(this, chunk, encoding);
  } as Push;
  if (declaredTooLarge) {
    // The first read of a body declared too large: the handler wanted it, so the answer is 413.
    req.once("resume", () => {
      watch.overflowed = true;
    });
    endEarly(req);
  }
  return watch;
}

/**
 * Makes the socket's close after this answer a lingering one: the answer is sent and the server's side
 * closed (FIN), while what the client still sends is read and discarded (see `watchBody`) until it
 * closes its side or `LINGER_MS` pass. Closed at once instead, a socket with unread bytes is reset, and
 * a client still writing its body gets EPIPE or ECONNRESET before it reads the answer.
 */
export function lingerOnClose(socket: Socket): void {
  const linger = socket as Socket & { destroySoon?: () => void; lingering?: true };
  if (linger.lingering) return;
  linger.lingering = true;
  // Node's server calls destroySoon once an answer with Connection: close has been handed to the socket.
  linger.destroySoon = () => {
    if (socket.destroyed) return;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    socket.end();
  };
}
