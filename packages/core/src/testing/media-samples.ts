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
