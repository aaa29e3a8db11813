import { SAMPLE_MP4, sampleMp4Lasting } from "@socialpub/core/testing";
import { describe, expect, it } from "vitest";
import { mp4DurationSeconds } from "../../src/common/mp4-duration.ts";

/* A video's length from its movie header, and nothing read, or walked, beyond what the file holds. */

/** A box: 32-bit size, four-letter type, content. */
function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const length = content.reduce((n, c) => n + c.length, 8);
  const out = new Uint8Array(length);
  new DataView(out.buffer).setUint32(0, length);
  out.set(new TextEncoder().encode(type), 4);
  let at = 8;
  for (const c of content) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A version-1 movie header: 64-bit times and duration. */
function mvhdV1(timescale: number, duration: bigint): Uint8Array {
  const body = new Uint8Array(112);
  const view = new DataView(body.buffer);
  view.setUint8(0, 1);
  view.setUint32(20, timescale);
  view.setBigUint64(24, duration);
  return box("mvhd", body);
}

function mvhdV0(timescale: number, duration: number): Uint8Array {
  const body = new Uint8Array(100);
  const view = new DataView(body.buffer);
  view.setUint32(12, timescale);
  view.setUint32(16, duration);
  return box("mvhd", body);
}

const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("an MP4's length (mvhd)", () => {
  it("reads version 0 and version 1 headers, the moov box before or after the media", () => {
    expect(mp4DurationSeconds(sampleMp4Lasting(612.5, 10_000))).toBe(612.5);
    expect(mp4DurationSeconds(join(SAMPLE_MP4, box("moov", mvhdV0(600, 36_000)), box("mdat")))).toBe(60);
    const long = join(SAMPLE_MP4, box("moov", box("iods"), mvhdV1(90_000, 90_000n * 3_700n)));
    expect(mp4DurationSeconds(long)).toBe(3_700);
  });

  it("reads a box with a 64-bit size, and one whose size 0 runs to the end of the file", () => {
    const large = new Uint8Array(24);
    const view = new DataView(large.buffer);
    view.setUint32(0, 1);
    large.set(new TextEncoder().encode("mdat"), 4);
    view.setBigUint64(8, 24n);
    expect(mp4DurationSeconds(join(SAMPLE_MP4, large, box("moov", mvhdV0(1000, 5_000))))).toBe(5);
    const toEnd = box("moov", mvhdV0(1000, 7_000));
    new DataView(toEnd.buffer).setUint32(0, 0);
    expect(mp4DurationSeconds(join(SAMPLE_MP4, toEnd))).toBe(7);
  });

  it("answers null, not a guess, for what it cannot read", () => {
    const unknown = [
      SAMPLE_MP4, // no moov
      new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]), // WebM
      join(SAMPLE_MP4, box("moov", box("trak"))), // no mvhd
      join(SAMPLE_MP4, box("moov", mvhdV0(0, 5_000))), // no timescale
      join(SAMPLE_MP4, box("moov", mvhdV0(1000, 0))), // fragmented: the length is in the fragments
      join(SAMPLE_MP4, box("moov", mvhdV0(1000, 0xffff_ffff))), // all ones: unknown
      join(SAMPLE_MP4, box("moov", mvhdV1(1000, 0xffff_ffff_ffff_ffffn))),
      join(SAMPLE_MP4, box("moov", box("mvhd", new Uint8Array([0, 0, 0, 0, 1, 2])))), // cut short
      join(SAMPLE_MP4, box("moov", box("mvhd", new Uint8Array(100).fill(2, 0, 1)))), // version 2
      new Uint8Array(0),
    ];
    for (const bytes of unknown) expect(mp4DurationSeconds(bytes)).toBeNull();
  });

  it("a hostile file: sizes past the end, sizes under a header, and endless tiny boxes end the walk", () => {
    const past = join(SAMPLE_MP4, box("moov", mvhdV0(1000, 5_000)));
    new DataView(past.buffer).setUint32(SAMPLE_MP4.length, 1_000_000);
    expect(mp4DurationSeconds(past)).toBeNull();
    const small = join(SAMPLE_MP4, new Uint8Array([0, 0, 0, 4, 0x66, 0x72, 0x65, 0x65]), box("moov"));
    expect(mp4DurationSeconds(small)).toBeNull();
    const huge = new Uint8Array(16);
    new DataView(huge.buffer).setUint32(0, 1);
    new DataView(huge.buffer).setBigUint64(8, 0xffff_ffff_ffff_ffffn);
    expect(mp4DurationSeconds(huge)).toBeNull();
    // Eight megabytes of empty boxes, the movie header last: the walk gives up after a bounded number
    // of boxes (so it answers null) rather than stepping through a million of them.
    const tiny = new Uint8Array(8 * 1024 * 1024);
    for (let at = 0; at < tiny.length; at += 8) tiny.set([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65], at);
    expect(mp4DurationSeconds(join(tiny, box("moov", mvhdV0(1000, 5_000))))).toBeNull();
    expect(mp4DurationSeconds(join(tiny.subarray(0, 8 * 100), box("moov", mvhdV0(1000, 5_000))))).toBe(5);
  });
});
