import type { ContentMedia } from "../contract/rich.ts";
import { mediaTypeOfUrl } from "../contract/media-kinds.ts";
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
