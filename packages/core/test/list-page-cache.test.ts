import { describe, expect, it } from "vitest";
import { type CachedPage, ListPageCache } from "../src/service/list-page-cache.ts";

const page = (body: string) => ({ body, headers: {} });

/** A page is kept the second time it is built: builds it twice. */
function keep(cache: ListPageCache, user: string, resource: string, version: number, built: CachedPage) {
  cache.set(user, resource, version, built);
  cache.set(user, resource, version, built);
}

describe("ListPageCache", () => {
  it("serves a page only at the version it was built at, and only to its user", () => {
    const cache = new ListPageCache(1_000);
    keep(cache, "usr_a", "/posts", 3, page("a3"));
    expect(cache.get("usr_a", "/posts", 3)?.body).toBe("a3");
    expect(cache.get("usr_a", "/posts", 4)).toBeUndefined();
    expect(cache.get("usr_b", "/posts", 3)).toBeUndefined();
    expect(cache.get("usr_a", "/posts?limit=1", 3)).toBeUndefined();
  });

  it("keeps a page the second time it is built, not the first, and a kept page's newer builds at once", () => {
    const cache = new ListPageCache(1_000);
    cache.set("usr_a", "post:1", 1, page("once"));
    expect(cache.get("usr_a", "post:1", 1)).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set("usr_a", "post:1", 1, page("twice"));
    expect(cache.get("usr_a", "post:1", 1)?.body).toBe("twice");
    // The post changed: its page at the new version replaces the kept one on its first build.
    cache.set("usr_a", "post:1", 2, page("changed"));
    expect(cache.get("usr_a", "post:1", 2)?.body).toBe("changed");
    // Another user's page of the same resource is a page of its own, built once so far.
    cache.set("usr_b", "post:1", 1, page("b"));
    expect(cache.get("usr_b", "post:1", 1)).toBeUndefined();
  });

  it("reading many pages once each leaves the cache empty, and what it held in place", () => {
    const cache = new ListPageCache(1_000);
    keep(cache, "usr_a", "/posts", 1, page("polled"));
    for (let i = 0; i < 50_000; i++) cache.set("usr_a", `post:${i}`, 1, page("x".repeat(100)));
    expect(cache.size).toBe(1);
    expect(cache.get("usr_a", "/posts", 1)?.body).toBe("polled");
  });

  it("a page built at an older version, finishing last, does not replace a newer one", () => {
    const cache = new ListPageCache(1_000);
    keep(cache, "usr_a", "/posts", 5, page("new"));
    cache.set("usr_a", "/posts", 4, page("old"));
    expect(cache.get("usr_a", "/posts", 5)?.body).toBe("new");
    cache.set("usr_a", "/posts", 6, page("newer"));
    expect(cache.get("usr_a", "/posts", 6)?.body).toBe("newer");
    expect(cache.size).toBe(1);
  });

  it("holds at most its size in characters, dropping the least recently used page first", () => {
    const cache = new ListPageCache(100);
    keep(cache, "usr_a", "/1", 1, page("x".repeat(40)));
    keep(cache, "usr_a", "/2", 1, page("y".repeat(40)));
    cache.get("usr_a", "/1", 1);
    keep(cache, "usr_a", "/3", 1, page("z".repeat(40)));
    expect(cache.get("usr_a", "/2", 1)).toBeUndefined();
    expect(cache.get("usr_a", "/1", 1)?.body).toBe("x".repeat(40));
    expect(cache.get("usr_a", "/3", 1)?.body).toBe("z".repeat(40));
    keep(cache, "usr_a", "/big", 1, page("w".repeat(200)));
    expect(cache.get("usr_a", "/big", 1)).toBeUndefined();
  });
});
