/*
 * A fetch for adapter tests that passes every request on to the network's fake and can lose an answer:
 * the request `loseNext` names reaches the network (which does what it asks), and its answer is
 * dropped as a connection closing would drop it; or, with `reaches: false`, the request itself is lost
 * on its way. Every request is recorded (method and path), so a test can count what an adapter read.
 */

export interface LosingFetch {
  fetch: typeof fetch;
  /** Every request sent: "GET /v1.0/123/threads?…". */
  readonly requests: string[];
  /** The next request whose "METHOD /path" matches `pattern` is lost (its answer, or itself). */
  loseNext(pattern: RegExp, options?: { reaches?: boolean }): void;
}

/** What undici throws when a connection closes before the answer: a TypeError with a coded cause. */
function closedBeforeAnswer(): TypeError {
  const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
  return new TypeError("fetch failed", { cause });
}

export function losingFetch(): LosingFetch {
  const requests: string[] = [];
  let lose: { pattern: RegExp; reaches: boolean } | null = null;
  const losing: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const line = `${init?.method ?? "GET"} ${url.pathname}${url.search}`;
    requests.push(line);
    if (lose?.pattern.test(line)) {
      const { reaches } = lose;
      lose = null;
      if (reaches) await (await fetch(input, init)).arrayBuffer();
      throw closedBeforeAnswer();
    }
    return fetch(input, init);
  };
  return {
    fetch: losing,
    requests,
    loseNext(pattern, options = {}) {
      lose = { pattern, reaches: options.reaches ?? true };
    },
  };
}
