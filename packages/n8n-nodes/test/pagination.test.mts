import { describe, expect, it } from "vitest";
import { nextCursor } from "../nodes/shared/pagination.ts";

describe("the next page cursor from a Link header", () => {
  it("is the cursor of the rel=next link", () => {
    expect(nextCursor('<http://127.0.0.1:8787/api/v1/posts?limit=100&cursor=abc123>; rel="next"')).toBe(
      "abc123",
    );
  });

  it("is found among several links and relation types, quoted or not", () => {
    const header =
      '</api/v1/posts?cursor=first>; rel="first", </api/v1/posts?cursor=n2>; rel="prefetch next"';
    expect(nextCursor(header)).toBe("n2");
    expect(nextCursor("</posts?cursor=bare>; rel=next")).toBe("bare");
  });

  it("is absent on the last page, and for links without a cursor", () => {
    expect(nextCursor(undefined)).toBeUndefined();
    expect(nextCursor("")).toBeUndefined();
    expect(nextCursor('</posts?cursor=x>; rel="prev"')).toBeUndefined();
    expect(nextCursor('</posts?limit=5>; rel="next"')).toBeUndefined();
  });

  it("keeps a cursor with URL-encoded characters intact", () => {
    expect(nextCursor('</posts?cursor=a%2Bb%3D>; rel="next"')).toBe("a+b=");
  });
});
