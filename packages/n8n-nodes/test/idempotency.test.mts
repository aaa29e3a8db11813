import { describe, expect, it } from "vitest";
import { checkIdempotencyKey, derivedIdempotencyKey } from "../nodes/shared/idempotency.ts";

describe("derivedIdempotencyKey", () => {
  it("appends the suffix when the result fits in 255 characters", () => {
    expect(derivedIdempotencyKey("release-v1.2.3", "media")).toBe("release-v1.2.3-media");
    const longest = "k".repeat(249);
    expect(derivedIdempotencyKey(longest, "media")).toBe(`${longest}-media`);
  });

  it.each([250, 251, 254, 255])(
    "for a %i-character key, answers a valid key that differs from it",
    (length) => {
      const key = "k".repeat(length);
      const derived = derivedIdempotencyKey(key, "media");
      expect(derived).not.toBe(key);
      expect(derived).toHaveLength(255);
      expect(derived.endsWith("-media")).toBe(true);
      expect(checkIdempotencyKey(derived)).toBeUndefined();
    },
  );

  it("never gives back a 255-character key that already ends in the suffix", () => {
    const key = `${"k".repeat(249)}-media`;
    expect(key).toHaveLength(255);
    expect(derivedIdempotencyKey(key, "media")).not.toBe(key);
  });

  it("gives different keys for long keys that differ only at the end", () => {
    const base = "k".repeat(250);
    const derived = ["a", "b", "c"].map((end) => derivedIdempotencyKey(`${base}${end}`, "media"));
    expect(new Set(derived).size).toBe(3);
  });
});
