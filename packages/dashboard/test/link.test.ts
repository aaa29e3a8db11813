import { describe, expect, test } from "vitest";
import { nextCursor } from "../src/lib/link.ts";

describe("nextCursor follows the Link header of a list", () => {
  test("the rel=next URL's cursor is the next page", () => {
    expect(nextCursor('</api/v1/posts?limit=50&cursor=abc%3D%3D>; rel="next"')).toBe("abc==");
  });

  test("other relations are not the next page", () => {
    expect(nextCursor('</api/v1/posts?cursor=zzz>; rel="prev"')).toBeNull();
  });

  test("no header, or one that does not parse, means the last page", () => {
    expect(nextCursor(null)).toBeNull();
    expect(nextCursor("")).toBeNull();
    expect(nextCursor("not a link header")).toBeNull();
  });
});
