import { describe, expect, it } from "vitest";
import { ListPageCache } from "../src/service/list-page-cache.ts";

const page = (body: string) => ({ body, headers: {} });

describe("ListPageCache", () => {
  it("serves a page only at the version it was built at, and only to its user", () => {
    const cache = new ListPageCache(1_000);
    cache.set("usr_a", "/posts", 3, page("a3"));
    expect(cache.get("usr_a", "/posts", 3)?.body).toBe("a3");
    expect(cache.get("usr_a", "/posts", 4)).toBeUndefined();
    expect(cache.get("usr_b", "/posts", 3)).toBeUndefined();
    expect(cache.get("usr_a", "/posts?limit=1", 3)).toBeUndefined();
  });

  it("a page built at an older version, finishing last, does not replace a newer one", () => {
    const cache = new ListPageCache(1_000);
    cache.set("usr_a", "/posts", 5, page("new"));
    cache.set("usr_a", "/posts", 4, page("old"));
    expect(cache.get("usr_a", "/posts", 5)?.body).toBe("new");
    cache.set("usr_a", "/posts", 6, page("newer"));
    expect(cache.get("usr_a", "/posts", 6)?.body).toBe("newer");
    expect(cache.size).toBe(1);
  });

  it("holds at most its size in characters, dropping the least recently used page first", () => {
    const cache = new ListPageCache(100);
    cache.set("usr_a", "/1", 1, page("x".repeat(40)));
    cache.set("usr_a", "/2", 1, page("y".repeat(40)));
    cache.get("usr_a", "/1", 1);
    cache.set("usr_a", "/3", 1, page("z".repeat(40)));
    expect(cache.get("usr_a", "/2", 1)).toBeUndefined();
    expect(cache.get("usr_a", "/1", 1)?.body).toBe("x".repeat(40));
    expect(cache.get("usr_a", "/3", 1)?.body).toBe("z".repeat(40));
    cache.set("usr_a", "/big", 1, page("w".repeat(200)));
    expect(cache.get("usr_a", "/big", 1)).toBeUndefined();
  });
});
