import { SAMPLE_MP4 } from "@socialpub/core/testing";

/**
 * A video of `size` bytes: an MP4's first box (so the service sniffs it as video/mp4) and filler the
 * network fakes, which do not decode media, count by size.
 */
export function sampleVideo(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(SAMPLE_MP4, 0);
  for (let i = SAMPLE_MP4.length; i < size; i++) bytes[i] = i % 253;
  return bytes;
}
