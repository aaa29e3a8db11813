/*
 * How long an MP4 or MOV video plays, read from its movie header: the `mvhd` box inside the `moov` box
 * (ISO/IEC 14496-12 §8.2.2; QuickTime's movie header is the same box), whose timescale (units a
 * second) and duration give the length. Networks that cap a video's length (TikTok's
 * max_video_post_duration_sec) are told it before anything is uploaded.
 *
 * The file comes from a user, so the walk is bounded: it only ever moves forward, at least one box
 * header at a time, looks at most MAX_BOXES boxes on each of its two levels, and reads nothing outside
 * the file. Anything it cannot read (another container such as WebM, a box that claims more bytes than
 * the file holds, a header without a duration) answers null: the length is unknown, not wrong.
 */

/** Top-level boxes (or boxes inside `moov`) looked at before giving up: real files have a handful. */
const MAX_BOXES = 1024;

/** The video's length in seconds, or null when the file is no MP4/MOV whose movie header says it. */
export function mp4DurationSeconds(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const moov = findBox(view, 0, view.byteLength, "moov");
  if (!moov) return null;
  const mvhd = findBox(view, moov.start, moov.end, "mvhd");
  return mvhd ? movieDuration(view, mvhd.start, mvhd.end) : null;
}

interface Box {
  /** Where the box's content starts (after its header) and where the box ends. */
  start: number;
  end: number;
}

/** The first box of `type` among the boxes laid end to end from `from` to `to`. */
function findBox(view: DataView, from: number, to: number, type: string): Box | null {
  let at = from;
  for (let seen = 0; seen < MAX_BOXES && at + 8 <= to; seen++) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      // A 64-bit size follows the type.
      if (at + 16 > to) return null;
      const large = view.getBigUint64(at + 8);
      if (large > BigInt(to - at)) return null;
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      // The box runs to the end of its parent (or of the file).
      size = to - at;
    }
    if (size < header || at + size > to) return null;
    if (fourCC(view, at + 4) === type) return { start: at + header, end: at + size };
    at += size;
  }
  return null;
}

/** The movie header's duration over its timescale; null when either is missing or unknown. */
function movieDuration(view: DataView, start: number, end: number): number | null {
  if (start + 4 > end) return null;
  const version = view.getUint8(start);
  // After version and flags: creation and modification times, then timescale and duration, 32-bit
  // in version 0 and 64-bit (the timescale stays 32-bit) in version 1.
  if (version === 0) {
    if (start + 20 > end) return null;
    const timescale = view.getUint32(start + 12);
    const duration = view.getUint32(start + 16);
    return seconds(duration === 0xffff_ffff ? null : duration, timescale);
  }
  if (version === 1) {
    if (start + 32 > end) return null;
    const timescale = view.getUint32(start + 20);
    const duration = view.getBigUint64(start + 24);
    return seconds(duration === 0xffff_ffff_ffff_ffffn ? null : Number(duration), timescale);
  }
  return null;
}

/**
 * All ones means the duration is unknown; zero is what a fragmented MP4 writes, whose length is in its
 * fragments instead: both are unknown here.
 */
function seconds(duration: number | null, timescale: number): number | null {
  if (duration === null || duration === 0 || timescale === 0) return null;
  return duration / timescale;
}

function fourCC(view: DataView, at: number): string {
  return String.fromCharCode(
    view.getUint8(at),
    view.getUint8(at + 1),
    view.getUint8(at + 2),
    view.getUint8(at + 3),
  );
}
