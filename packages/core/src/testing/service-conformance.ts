import { describe } from "vitest";
import { authTests } from "./service/auth.ts";
import { createPostTests } from "./service/create-post.ts";
import { type MakeServiceTarget, useHarness } from "./service/harness.ts";
import { meTests } from "./service/me.ts";

/**
 * The service conformance suite: every rule of the contract and decisions.md, asserted through HTTP
 * requests and responses only (plus the store and clock the target exposes). Written once; run
 * against each store, in-process and over real HTTP.
 */
export function describeServiceConformance(label: string, makeTarget: MakeServiceTarget): void {
  describe(`service conformance: ${label}`, () => {
    const h = useHarness(makeTarget);
    authTests(h);
    meTests(h);
    createPostTests(h);
  });
}
