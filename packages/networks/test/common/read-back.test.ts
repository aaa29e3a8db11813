import { NetworkError } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../../test-support/linear-growth.ts";
import { asStored, firstPostSince, type ListedPost, readBackSince } from "../../src/common/read-back.ts";

/** Posts newest first, one a minute, ending at `newest`. */
function timeline(texts: string[], newest: number): ListedPost[] {
  return texts.map((text, i) => ({
    id: `p${i}`,
    text,
    at: newest - i * 60_000,
    permalink: `https://n/p${i}`,
  }));
}

/** A reader over `posts` in pages of `size`, counting the pages read. */
function pagedReader(posts: ListedPost[], size: number) {
  const reads: (number | null)[] = [];
  return {
    reads,
    readPage: async (cursor: number | null) => {
      reads.push(cursor);
      const start = cursor ?? 0;
      const next = start + size < posts.length ? start + size : null;
      return { posts: posts.slice(start, start + size), next };
    },
  };
}

const T = Date.UTC(2026, 10, 28, 12, 0, 0);

describe("reading an account's recent posts back for a lost attempt", () => {
  it("finds the newest post with exactly the text, made at or after since", () => {
    const posts = timeline(["other", "Hello", "Hello"], T);
    expect(firstPostSince(posts, "Hello", T - 2 * 60_000)?.id).toBe("p1");
    expect(firstPostSince(posts, "Hello ", T - 2 * 60_000)).toBeNull();
    expect(firstPostSince(posts, "hello", T - 2 * 60_000)).toBeNull();
    // The same text before `since` is someone else's post (or an earlier one of the user's).
    expect(firstPostSince(timeline(["x", "y", "Hello"], T), "Hello", T - 60_000)).toBeNull();
  });

  it("reads pages until it meets a post older than since, and no further", async () => {
    const posts = timeline(["a", "b", "c", "d", "e", "f", "g", "Hello"], T);
    const reader = pagedReader(posts, 2);
    const found = await readBackSince({
      network: "threads",
      name: "Threads",
      text: "Hello",
      since: T - 4 * 60_000,
      maxPages: 10,
      readPage: reader.readPage,
    });
    expect(found).toBeNull();
    // Pages [a b] [c d] [e f]: f is older than since, so g and Hello are never read.
    expect(reader.reads).toEqual([null, 2, 4]);
  });

  it("answers the post found on a later page, with its id and permalink", async () => {
    const posts = timeline(["a", "b", "c", "Hello", "e"], T);
    const reader = pagedReader(posts, 2);
    const found = await readBackSince({
      network: "threads",
      name: "Threads",
      text: "Hello",
      since: T - 10 * 60_000,
      maxPages: 10,
      readPage: reader.readPage,
    });
    expect(found).toEqual({ id: "p3", permalink: "https://n/p3" });
    expect(reader.reads).toEqual([null, 2]);
  });

  it("stops at the last page", async () => {
    const reader = pagedReader(timeline(["a", "b", "c"], T), 2);
    const read = { network: "threads" as const, name: "Threads", text: "Hello", since: 0, maxPages: 10 };
    expect(await readBackSince({ ...read, readPage: reader.readPage })).toBeNull();
    expect(reader.reads).toEqual([null, 2]);
  });

  it("fails as outcome unknown, never null, when more posts were made since than it reads", async () => {
    const reader = pagedReader(timeline(["a", "b", "c", "d", "e", "Hello"], T), 2);
    const lookup = readBackSince({
      network: "instagram",
      name: "Instagram",
      text: "Hello",
      since: T - 60 * 60_000,
      maxPages: 2,
      readPage: reader.readPage,
    });
    const error = await lookup.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: "refused", network: "instagram" });
    expect((error as Error).message).toMatch(
      /^Instagram: outcome unknown: check the network \(the account made more posts since 2026-11-28T11:00:00.000Z .*it was not sent again/,
    );
    expect(reader.reads).toEqual([null, 2]);
  });

  it("reads past a post without a time and never takes it", async () => {
    const posts: ListedPost[] = [
      { id: "u", text: "Hello", at: Number.NaN, permalink: "https://n/u" },
      ...timeline(["Hello"], T),
    ];
    expect(firstPostSince(posts, "Hello", T - 60_000)?.id).toBe("p0");
  });

  it("compares texts as networks keep them (no white space around, LF line ends, NFC)", () => {
    expect(asStored(" \r\nCafe\u0301 \r\nau lait\t\n")).toBe("Caf\u00e9 \nau lait");
    const posts = [{ id: "p", text: asStored("Hello\n"), at: T, permalink: "https://n/p" }];
    expect(firstPostSince(posts, asStored("  Hello"), T)?.id).toBe("p");
  });

  it("costs time linear in the texts, whatever runs of white space and line ends they hold", () => {
    const text = (n: number) => `${" \r\n".repeat(n)}x${" \t\r".repeat(n)}`;
    const texts = { small: text(100_000), large: text(200_000) };
    const measured = growth((size) => {
      const sent = asStored(`${texts[size]}y`);
      return firstPostSince([{ id: "a", text: asStored(texts[size]), at: T, permalink: "" }], sent, 0);
    });
    expect(measured.ratio, describeGrowth("asStored and firstPostSince", measured)).toBeLessThanOrEqual(
      MAX_GROWTH,
    );
  }, 120_000);
});
