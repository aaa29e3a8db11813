import type { AccountSession, ConnectContext, Credentials, MediaFile, PublishInput } from "@socialpub/core";

export function sessionOf(credentials: Credentials, handle = "account"): AccountSession {
  return { handle, credentials, saveCredentials: async () => {} };
}

let keys = 0;

export function postOf(
  text: string,
  media: MediaFile[] = [],
  signal = AbortSignal.timeout(15_000),
): PublishInput {
  keys += 1;
  return {
    postId: `post_${keys}`,
    text,
    media,
    key: `3k${String(keys).padStart(11, "2")}`,
    signal,
    step: null,
    saveStep: async () => {},
  };
}

/**
 * What the service lends connect. URLs pass the address rule as a server started with --dev would
 * (the fakes listen on loopback), after the same syntax checks.
 */
export function contextOf(signal = AbortSignal.timeout(15_000)): ConnectContext {
  return {
    signal,
    checkUserUrl: async (value, field) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new Error(`${field} is not a URL`);
      }
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${field} must be http(s)`);
      return url;
    },
  };
}

/** A small file; the fakes do not decode media, so its bytes only need the right size. */
export function fileOf(contentType: string, filename: string, size = 2048, alt?: string): MediaFile {
  const bytes = new Uint8Array(size).map((_, i) => i % 251);
  return {
    bytes,
    contentType,
    filename,
    url: `https://media.example.com/${filename}`,
    ...(alt ? { alt } : {}),
  };
}

/** Runs `fn`, expecting it to throw, and returns what it threw. */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure, but it succeeded");
}

/** Everything an error carries that could reach a log: message, stack, cause chain, own fields. */
export function everythingIn(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    if (e instanceof Error) parts.push(e.message, e.stack ?? "", JSON.stringify({ ...e }));
    else parts.push(String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join("\n");
}
