/**
 * The hint the service shows of a key (its prefix and last 4 characters), made here from the key this
 * page is signed in with to tell which listed key is its own. The same as `keyHint` in core, which the
 * page does not bundle (it hashes with node:crypto); a test holds the two together.
 */
export function hintOf(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}
