// A video's width and height as it shows, read from the MP4 itself (the first video track's header,
// `moov/trak/tkhd`), so Bluesky's apps lay the video out before it loads, as they do images. Only the
// box headers are read: nothing is decoded.

/** Boxes whose content is more boxes, on the way to a track header. */
const CONTAINERS = new Set(["moov", "trak"]);

/** The displayed width and height of the MP4's first track that has them; undefined when it says none. */
export function mp4Dimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return search(view, 0, view.byteLength);
}

function search(view: DataView, start: number, end: number): { width: number; height: number } | undefined {
  let offset = start;
  while (offset + 8 <= end) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(
      view.getUint8(offset + 4),
      view.getUint8(offset + 5),
      view.getUint8(offset + 6),
      view.getUint8(offset + 7),
    );
    let header = 8;
    if (size === 1) {
      // A 64-bit size follows the type.
      if (offset + 16 > end) return undefined;
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset; // the box runs to the end of its parent
    }
    if (size < header || offset + size > end) return undefined;
    if (CONTAINERS.has(type)) {
      const found = search(view, offset + header, offset + size);
      if (found) return found;
    } else if (type === "tkhd") {
      const found = trackSize(view, offset + header, offset + size);
      if (found) return found;
    }
    offset += size;
  }
  return undefined;
}

/** A track header's presentation size (16.16 fixed point), turned a quarter when its matrix says so. */
function trackSize(
  view: DataView,
  start: number,
  end: number,
): { width: number; height: number } | undefined {
  const version = view.getUint8(start);
  // version, flags; times, track id, reserved, duration (32 or 64 bits each); reserved, layer,
  // alternate group, volume, reserved; then the 3×3 matrix and the width and height.
  const matrix = start + 4 + (version === 1 ? 32 : 20) + 16;
  const sizeAt = matrix + 36;
  if (sizeAt + 8 > end) return undefined;
  const width = Math.round(view.getUint32(sizeAt) / 65536);
  const height = Math.round(view.getUint32(sizeAt + 4) / 65536);
  if (width === 0 || height === 0) return undefined; // an audio track
  // A matrix whose first entry is 0 turns the picture by 90° or 270°: it shows height × width.
  const quarterTurn = view.getInt32(matrix) === 0 && view.getInt32(matrix + 4) !== 0;
  return quarterTurn ? { width: height, height: width } : { width, height };
}
