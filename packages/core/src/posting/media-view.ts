import { mediaTypeOfUrl } from "../contract/media-kinds.ts";
import type { ContentMedia } from "../contract/rich.ts";
import type { MediaFile } from "../networks/adapter.ts";
import type { MediaRecord, MediaRef } from "../store/types.ts";

/** Reads one of the user's uploads (store.getMedia). */
export type MediaLookup = (userId: string, id: string) => Promise<MediaRecord | null>;

/**
 * Media items as an answer shows them: where the network fetches each (the URL given, or the upload's
 * URL for a med_ id), its type where it can be told, and its alt text. Each upload is read once.
 */
export async function viewMedia(
  getMedia: MediaLookup,
  userId: string,
  refs: readonly MediaRef[],
): Promise<ContentMedia[]> {
  const uploads = new Map<string, MediaRecord | null>();
  const out: ContentMedia[] = [];
  for (const { ref, alt } of refs) {
    let record: MediaRecord | null = null;
    if (ref.startsWith("med_")) {
      if (!uploads.has(ref)) uploads.set(ref, await getMedia(userId, ref));
      record = uploads.get(ref) ?? null;
    }
    // An upload deleted since the post was made is shown as given.
    out.push(
      record
        ? { url: record.url, type: record.type, alt: alt ?? null }
        : { url: ref, type: mediaTypeOfUrl(ref), alt: alt ?? null },
    );
  }
  return out;
}

/**
 * Media items described without their bytes, for an adapter that sends nothing out (the sandbox): the
 * URL, the type where it can be told (else application/octet-stream) and the alt text.
 */
export async function describedMedia(
  getMedia: MediaLookup,
  userId: string,
  refs: readonly MediaRef[],
): Promise<MediaFile[]> {
  const viewed = await viewMedia(getMedia, userId, refs);
  return viewed.map((m, i) => ({
    bytes: new Uint8Array(0),
    contentType: m.type ?? "application/octet-stream",
    filename: `media-${i + 1}`,
    url: m.url,
    ...(m.alt !== null && { alt: m.alt }),
  }));
}
