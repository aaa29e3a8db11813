import { NetworkError } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { cannotReadBack, refusedReadBack } from "../../src/common/read-back-refused.ts";

const FACEBOOK = {
  network: "facebook" as const,
  name: "Facebook",
  why: "the server could not read the Page's posts back",
};

describe("a read-back the network refuses", () => {
  it("fails the target as outcome unknown, with what the network said and never retried", () => {
    const said = new NetworkError(
      "facebook",
      "refused",
      "Facebook does not let this app post to the Page (…) (Facebook said: 403 code 10: (#10) permission).",
      { status: 403 },
    );
    const error = refusedReadBack(FACEBOOK, said) as NetworkError;
    expect(error).toMatchObject({ kind: "refused", network: "facebook", status: 403, cause: said });
    expect(error.message).toBe(
      "Facebook: outcome unknown: check the network (the server could not read the Page's posts back (Facebook said: 403 code 10: (#10) permission)); it was not sent again, so the post cannot appear twice.",
    );
    expect(cannotReadBack(FACEBOOK).message).toBe(
      "Facebook: outcome unknown: check the network (the server could not read the Page's posts back); it was not sent again, so the post cannot appear twice.",
    );
  });

  it("leaves a limit, a lapsed token or no answer to be classified as usual", () => {
    for (const kind of ["retry", "reauth", "unknown"] as const) {
      const error = new NetworkError("facebook", kind, "Facebook failed to answer");
      expect(refusedReadBack(FACEBOOK, error)).toBe(error);
    }
    const other = new Error("not a network's");
    expect(refusedReadBack(FACEBOOK, other)).toBe(other);
  });
});
