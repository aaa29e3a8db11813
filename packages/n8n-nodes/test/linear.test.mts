import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../test-support/linear-growth.ts";
import { SocialPublishApi } from "../credentials/SocialPublishApi.credentials.ts";
import { nextCursor } from "../nodes/shared/pagination.ts";
import { withoutTrailingSlashes } from "../nodes/shared/transport.ts";

/*
 * What the nodes parse of what a user typed (the credential's Base URL) or a server sent (the Link
 * header) must cost in proportion to its length. The shapes are those that made the regular expressions
 * they replace rescan a run from each of its characters: a run of slashes before the end, and a header
 * full of "<" that never closes one or of `;rel=` parameters. Each check times 10,000 and 20,000
 * characters in one run.
 */

const SIZES = { small: 10_000, large: 20_000 };

function checkGrowth(shapes: Record<string, (n: number) => string>, work: (text: string) => unknown) {
  const slow: string[] = [];
  for (const [shape, make] of Object.entries(shapes)) {
    const texts = { small: make(SIZES.small), large: make(SIZES.large) };
    const measured = growth((size) => work(texts[size]));
    if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(shape, measured));
  }
  expect(slow).toEqual([]);
}

/** The credential test's base URL expression, as plain JavaScript (n8n evaluates it as such). */
function credentialBaseUrl(): (baseUrl: string) => string {
  const expression = String(new SocialPublishApi().test.request.baseURL);
  const code = /^=\{\{(.+)\}\}$/.exec(expression)![1]!;
  return new Function("baseUrl", `const $credentials = { baseUrl }; return (${code});`) as (
    baseUrl: string,
  ) => string;
}

describe("the nodes' parsing is linear in its input", () => {
  const slashes = {
    "slashes then a word": (n: number) => `http://x/${"/".repeat(n)}v1`,
    "trailing slashes": (n: number) => `http://x/v1${"/".repeat(n)}`,
  };

  it("trimming the Base URL in the nodes", () => {
    expect(withoutTrailingSlashes("http://x/api/v1//")).toBe("http://x/api/v1");
    checkGrowth(slashes, withoutTrailingSlashes);
  }, 120_000);

  it("trimming the Base URL in the credential's test request", () => {
    const baseUrl = credentialBaseUrl();
    expect(baseUrl("http://x/api/v1///")).toBe("http://x/api/v1");
    expect(baseUrl("http://x/api/v1")).toBe("http://x/api/v1");
    checkGrowth(slashes, baseUrl);
  }, 120_000);

  it("finding the next cursor in a Link header", () => {
    expect(nextCursor(`${"<".repeat(100)}/posts?cursor=c>; rel=next`)).toBe("c");
    checkGrowth(
      {
        "a '<' that never closes": (n) => "<".repeat(n),
        "rel parameters": (n) => `</posts?cursor=c>${";rel=".repeat(n / 5)}`,
        "spaces in a rel": (n) => `</posts?cursor=c>; rel=${" ".repeat(n)}x`,
      },
      nextCursor,
    );
  }, 120_000);
});
