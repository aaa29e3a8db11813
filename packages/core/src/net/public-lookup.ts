import { lookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { isPublicAddress } from "./public-url.ts";

/**
 * A resolver for the connection itself that refuses hosts resolving to loopback, private or
 * link-local addresses. Checking the URL before sending is not enough on its own: the name could
 * resolve to a public address for the check and to an internal one for the connection (DNS
 * rebinding). Resolving once, here, and connecting to what was checked closes that gap.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, "");
      return;
    }
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    const first = addresses[0];
    if (refused || !first) {
      const error: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to ${refused?.address ?? "no address"}, not a public address; webhooks go to public addresses only`,
      );
      error.code = "EPRIVATEADDRESS";
      callback(error, "");
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};
