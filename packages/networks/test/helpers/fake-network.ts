import { NetworkError } from "@socialpub/core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { caught, everythingIn } from "./session.ts";

interface Fake {
  readonly specViolations: unknown[];
  close(): Promise<void>;
}

/**
 * An adapter test's fake network and its checks: started once for the file, closed after it, and after
 * each test no request the fake saw broke the network's API description. The errors tests provoke and
 * the secrets they hand out are kept, so a last test can check that no error carries a secret.
 */
export function fakeNetwork<F extends Fake>(start: () => Promise<F>, startTimeoutMs: number) {
  let fake: F | undefined;
  const secrets: string[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    fake = await start();
  }, startTimeoutMs);
  afterEach(() => {
    expect(fake!.specViolations.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await fake?.close();
  });

  return {
    /** The running fake (from the first beforeAll on). */
    get fake(): F {
      return fake!;
    },
    /** Remembers a secret the fake handed out, for the final leak check. */
    secret(value: string): string {
      secrets.push(value);
      return value;
    },
    /** The NetworkError `fn` fails with, kept for the final leak check. */
    async failure(fn: () => Promise<unknown>): Promise<NetworkError> {
      const error = await caught(fn);
      errors.push(error);
      expect(error).toBeInstanceOf(NetworkError);
      return error as NetworkError;
    },
    /** No kept error carries a kept secret (message, stack, cause or fields), nor text matching `leak`. */
    expectNoSecretInErrors(atLeast: number, leak: RegExp): void {
      expect(errors.length).toBeGreaterThan(atLeast);
      for (const error of errors) {
        const text = everythingIn(error);
        for (const secret of secrets) expect(text).not.toContain(secret);
        expect(text).not.toMatch(leak);
      }
    },
  };
}
