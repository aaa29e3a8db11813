// What each kind of PDS failure means for the service, and the record keys that make retries safe.
// (The same paths run against the real PDS in adapter.test.ts; these cover answers it cannot be made
// to give on demand: 5xx, a 429 on a write, a lost answer.)
import { XRPCError } from "@atproto/api";
import { TID } from "@atproto/common-web";
import { newId } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { classify, retryAfterMsOf } from "../../src/bluesky/errors.ts";
import { partRecordKey, recordKeyFor } from "../../src/bluesky/record-key.ts";
import { mp4Dimensions } from "../../src/bluesky/video.ts";
import { tinyMp4 } from "./helpers.ts";

describe("classify", () => {
  it("turns a 429 into retry with the ratelimit-reset hint", () => {
    const now = 1_800_000_000_000;
    const error = new XRPCError(429, "RateLimitExceeded", "Rate Limit Exceeded", {
      "ratelimit-limit": "5000",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(now / 1000 + 90),
    });
    expect(retryAfterMsOf(error.headers, now)).toBe(90_000);
    const classified = classify(error, "publishing the post", true);
    expect(classified.kind).toBe("retry");
    expect(classified.status).toBe(429);
  });

  it("turns 5xx into retry, 400 into refused with the reason, 401 into reauth", () => {
    expect(classify(new XRPCError(502, "UpstreamFailure"), "publishing", true).kind).toBe("retry");
    const refused = classify(
      new XRPCError(400, "InvalidRequest", "Invalid app.bsky.feed.post record: grapheme too big"),
      "publishing the post",
      true,
    );
    expect(refused.kind).toBe("refused");
    expect(refused.message).toBe(
      "Bluesky refused publishing the post: InvalidRequest: Invalid app.bsky.feed.post record: grapheme too big",
    );
    expect(classify(new XRPCError(401, "AuthenticationRequired"), "publishing", true).kind).toBe("reauth");
    expect(classify(new XRPCError(400, "AccountTakedown"), "publishing", true).kind).toBe("reauth");
  });

  it("says a write sent without an answer has an unknown outcome, and a read is retried", () => {
    const timeout = new XRPCError(1, "Unknown", "fetch failed", undefined, {
      cause: new DOMException("timed out", "TimeoutError"),
    });
    expect(classify(timeout, "publishing the post", true).kind).toBe("unknown");
    expect(classify(timeout, "looking for the post").kind).toBe("retry");
    const refusedConnection = new XRPCError(1, "Unknown", "fetch failed", undefined, {
      cause: new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
      }),
    });
    expect(classify(refusedConnection, "publishing the post", true).kind).toBe("retry");
  });
});

describe("recordKeyFor", () => {
  it("uses the service's TID as it is", () => {
    expect(recordKeyFor("3kabcdefghij2")).toBe("3kabcdefghij2");
  });

  it("turns any other key into a valid TID, always the same, at the time of the post id it holds", () => {
    const madeAt = Date.UTC(2026, 10, 24, 12, 30, 15, 250);
    const key = `${newId("post", madeAt)}:bluesky`;
    const rkey = recordKeyFor(key);
    expect(TID.is(rkey)).toBe(true);
    expect(recordKeyFor(key)).toBe(rkey);
    expect(recordKeyFor(key.replace(":bluesky", ":other"))).not.toBe(rkey);
    // The TID's time (microseconds) is the post id's creation time (milliseconds).
    expect(Math.floor(TID.fromStr(rkey).timestamp() / 1000)).toBe(madeAt);
    expect(TID.is(recordKeyFor("any key at all"))).toBe(true);
  });
});

describe("partRecordKey", () => {
  it("gives each part and the first comment a TID of its own, always the same, sorting after the post's", () => {
    const key = `${newId("post", Date.UTC(2026, 10, 24, 12, 30, 15, 250))}:bluesky`;
    const first = recordKeyFor(key);
    expect(partRecordKey(key, 0)).toBe(first);
    const keys = [
      first,
      ...Array.from({ length: 24 }, (_, i) => partRecordKey(key, i + 1)),
      partRecordKey(key, "comment"),
    ];
    for (const rkey of keys) expect(TID.is(rkey)).toBe(true);
    expect(new Set(keys).size).toBe(26);
    // Record keys sort as the thread reads: the post, its parts in order, then the first comment.
    expect([...keys].sort()).toEqual(keys);
    expect(partRecordKey(key, 2)).toBe(keys[2]);
    expect(partRecordKey(`${key}x`, 2)).not.toBe(keys[2]);
  });
});

describe("mp4Dimensions", () => {
  it("reads the track header's width and height, turned a quarter when its matrix says so", () => {
    expect(mp4Dimensions(tinyMp4(1280, 720))).toEqual({ width: 1280, height: 720 });
    expect(mp4Dimensions(tinyMp4(1920, 1080, true))).toEqual({ width: 1080, height: 1920 });
  });

  it("says nothing for bytes that are not an MP4 with a sized track, rather than failing", () => {
    expect(mp4Dimensions(new Uint8Array(10))).toBeUndefined();
    expect(mp4Dimensions(tinyMp4(0, 0))).toBeUndefined();
    expect(mp4Dimensions(tinyMp4(640, 480).subarray(0, 60))).toBeUndefined();
  });
});
