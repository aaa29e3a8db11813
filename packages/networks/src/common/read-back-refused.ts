import { NetworkError, type NetworkId } from "@socialpub/core";

/*
 * When the account's posts cannot be read back after an attempt whose answer was lost (the network
 * refuses the read for want of a scope, or answers something that is not a listing), the service cannot
 * tell whether the post was made, so it must not send it again. The failure is `refused` (never retried)
 * and says so in the words the service uses for an unknown outcome, with what the network said and what
 * would let the server look the next time.
 */

export interface ReadBackNetwork {
  network: NetworkId;
  /** The network's name as errors say it. */
  name: string;
  /** Why the posts could not be read and what to do about it, for the user. */
  why: string;
}

export function cannotReadBack(n: ReadBackNetwork, cause?: NetworkError): NetworkError {
  const said = cause ? saidPart(cause.message, n.name) : "";
  return new NetworkError(
    n.network,
    "refused",
    `${n.name}: outcome unknown: check the network (${n.why}${said}); it was not sent again, so the post cannot appear twice.`,
    { ...(cause?.status !== undefined && { status: cause.status }), ...(cause && { cause }) },
  );
}

/**
 * A read the network refused for good becomes `cannotReadBack`; anything else (a limit, a lapsed token,
 * a network that did not answer) is classified as usual and passes unchanged.
 */
export function refusedReadBack(n: ReadBackNetwork, error: unknown): unknown {
  return error instanceof NetworkError && error.kind === "refused" ? cannotReadBack(n, error) : error;
}

/** " (X said: 403 …)" from a classified error's message: what the network said, and nothing of ours. */
function saidPart(message: string, name: string): string {
  const at = message.indexOf(`(${name} said:`);
  if (at < 0) return "";
  const part = message.slice(at);
  return ` ${part.endsWith(".") ? part.slice(0, -1) : part}`;
}
