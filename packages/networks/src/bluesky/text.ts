// Bluesky limits a post's text twice: 300 graphemes, which the service adapts every caption to, and
// 3000 UTF-8 bytes, which only text dense in emoji (a family emoji is one grapheme of 18 bytes) can pass
// while within 300 graphemes. Such a text is shortened here the same way, rather than refused.
import { truncate } from "@socialpub/core";

export const MAX_TEXT_BYTES = 3000;
const ELLIPSIS_BYTES = Buffer.byteLength("…");

export function fitTextBytes(text: string): string {
  if (Buffer.byteLength(text) <= MAX_TEXT_BYTES) return text;
  // How many whole graphemes fit beside the closing ellipsis; truncate then cuts at most there.
  let fits = 0;
  let bytes = 0;
  for (const { segment } of new Intl.Segmenter().segment(text)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > MAX_TEXT_BYTES - ELLIPSIS_BYTES) break;
    fits++;
  }
  return truncate(text, fits + 1, "graphemes");
}
