import { describe, expect, test } from "vitest";
import type { Post } from "../src/api/types.ts";
import { describeChanges } from "../src/lib/changes.ts";
import { back, currentCursor, firstPage, forward, pageNumber } from "../src/lib/cursor-stack.ts";
import { hrefFor, parseRoute } from "../src/lib/route.ts";

const post = (id: string, status: Post["status"]): Post => ({
  id,
  caption: "",
  platforms: ["x"],
  status,
  has_media: false,
  scheduled_at: null,
  published_at: null,
  reach: 0,
  engagement_rate: 0,
});

describe("routes live in the address's hash", () => {
  test.each([
    ["", { view: "posts" }],
    ["#/posts", { view: "posts" }],
    ["#/posts/post_1", { view: "post", id: "post_1" }],
    ["#/webhooks", { view: "webhooks" }],
    ["#/webhooks/wh_1", { view: "webhooks", id: "wh_1" }],
    ["#/accounts", { view: "accounts" }],
    ["#/sandbox", { view: "accounts" }],
    ["#/analytics", { view: "analytics" }],
    ["#/nonsense", { view: "posts" }],
  ])("%s opens %j", (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  test("every route's link opens that route again", () => {
    for (const route of [
      { view: "post", id: "post_a/b" },
      { view: "webhooks", id: "wh_1" },
      { view: "analytics" },
    ] as const) {
      expect(parseRoute(hrefFor(route))).toEqual(route);
    }
  });
});

describe("paging back and forth through a list that only links forward", () => {
  test("forward remembers each cursor; back returns to the page before", () => {
    let stack = firstPage;
    expect(currentCursor(stack)).toBeUndefined();
    stack = forward(stack, "c2");
    stack = forward(stack, "c3");
    expect([pageNumber(stack), currentCursor(stack)]).toEqual([3, "c3"]);
    stack = back(stack);
    expect([pageNumber(stack), currentCursor(stack)]).toEqual([2, "c2"]);
    expect(back(back(stack))).toEqual(firstPage);
  });
});

describe("what the live region says after a refresh", () => {
  test("nothing on the first load", () => {
    expect(describeChanges(null, [post("post_1", "published")])).toBe("");
  });

  test("new posts and status changes are announced; unchanged posts are not", () => {
    const before = [post("post_1", "scheduled"), post("post_2", "draft")];
    const after = [post("post_3", "published"), post("post_1", "published"), post("post_2", "draft")];
    expect(describeChanges(before, after)).toBe("1 new post. Post post_1 is now published.");
    expect(describeChanges(after, after)).toBe("");
  });
});
