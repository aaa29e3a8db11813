/**
 * Small but real media files for tests: the service tells an upload's type from its bytes, so a test
 * upload must be an actual image or video.
 */

/** A 1×1 PNG (67 bytes). */
export const SAMPLE_PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** The start of a JPEG file (SOI and a JFIF APP0 segment): enough for its type to be told. */
export const SAMPLE_JPEG: Uint8Array<ArrayBuffer> = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xd9,
]);

/** The start of an MP4 file: an ftyp box (isom, mp42). */
export const SAMPLE_MP4: Uint8Array<ArrayBuffer> = new Uint8Array([
  0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0x00, 0x00, 0x00, 0x00, 0x69, 0x73,
  0x6f, 0x6d, 0x6d, 0x70, 0x34, 0x32,
]);

/**
 * An MP4 of `size` bytes (at least 148) that plays for `seconds`: the sample's ftyp box, an mdat box
 * of filler, and last (as cameras write it) a moov box whose movie header (mvhd, version 0, timescale
 * 1000) says the length. Nothing decodes the frames; networks that cap a video's length read this.
 */
export function sampleMp4Lasting(seconds: number, size = 4096): Uint8Array<ArrayBuffer> {
  const MVHD = 108;
  const MOOV = 8 + MVHD;
  const mdat = size - SAMPLE_MP4.length - MOOV;
  if (mdat < 8) throw new Error(`an MP4 with a movie header takes at least ${size - mdat + 8} bytes`);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set(SAMPLE_MP4, 0);
  let at = SAMPLE_MP4.length;
  view.setUint32(at, mdat);
  bytes.set([0x6d, 0x64, 0x61, 0x74], at + 4); // "mdat"
  for (let i = at + 8; i < at + mdat; i++) bytes[i] = i % 253;
  at += mdat;
  view.setUint32(at, MOOV);
  bytes.set([0x6d, 0x6f, 0x6f, 0x76], at + 4); // "moov"
  view.setUint32(at + 8, MVHD);
  bytes.set([0x6d, 0x76, 0x68, 0x64], at + 12); // "mvhd", version 0, no flags, no times
  view.setUint32(at + 28, 1000); // timescale: milliseconds
  view.setUint32(at + 32, Math.round(seconds * 1000));
  return bytes;
}
