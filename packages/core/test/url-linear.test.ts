import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../test-support/linear-growth.ts";
import { SocialPublishClient } from "../src/client/client.ts";
import { withoutTrailingSlashes } from "../src/text/trailing-slashes.ts";

/*
 * A base URL is configuration a user types; trimming its trailing slashes must cost in proportion to its
 * length. A run of slashes followed by something else is the shape that makes `/\/+$/` rescan the run
 * from each of its slashes. Each check times 10,000 and 20,000 characters in one run.
 */

const SIZES = { small: 10_000, large: 20_000 };
const slashesThen = (n: number, end: string) => `${"/".repeat(n)}${end}`;

describe("trimming a base URL's trailing slashes is linear in its length", () => {
  it("withoutTrailingSlashes, on a run of slashes inside the text and at its end", () => {
    const slow: string[] = [];
    for (const [shape, make] of Object.entries({
      "slashes then a word": (n: number) => slashesThen(n, "x"),
      "only slashes": (n: number) => slashesThen(n, ""),
    })) {
      const texts = { small: make(SIZES.small), large: make(SIZES.large) };
      const measured = growth((size) => withoutTrailingSlashes(texts[size]));
      if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(shape, measured));
    }
    expect(slow).toEqual([]);
    expect(withoutTrailingSlashes("https://api.example/api/v1///")).toBe("https://api.example/api/v1");
    expect(withoutTrailingSlashes("///")).toBe("");
  }, 120_000);

  it("a client given a base URL whose path is a long run of slashes", () => {
    const urls = {
      small: `http://127.0.0.1:1/${slashesThen(SIZES.small, "v1")}`,
      large: `http://127.0.0.1:1/${slashesThen(SIZES.large, "v1")}`,
    };
    const measured = growth((size) => new SocialPublishClient({ apiKey: "sp_test_x", baseUrl: urls[size] }));
    expect(measured.ratio, describeGrowth("client", measured)).toBeLessThanOrEqual(MAX_GROWTH);
  }, 120_000);
});
