import type { MediaRecord } from "../store/types.ts";

/**
 * Where uploaded media bytes are kept, under a key of the media id and its content token. The service
 * serves them back at /api/v1/media/{id}/content/{token} so networks can fetch them. The in-memory storage suits tests and the
 * in-process service; the server passes one that writes to its data folder.
 */
export interface MediaStorage {
  /** Keeps the bytes of media `id`; returns where they are (a path, or a key), for the media record. */
  put(id: string, bytes: Uint8Array<ArrayBuffer>, type: string): Promise<string>;
  get(id: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null>;
}

export class MemoryMediaStorage implements MediaStorage {
  private readonly items = new Map<string, { bytes: Uint8Array<ArrayBuffer>; type: string }>();

  async put(id: string, bytes: Uint8Array<ArrayBuffer>, type: string): Promise<string> {
    this.items.set(id, { bytes: bytes.slice(), type });
    return `memory:${id}`;
  }

  async get(id: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null> {
    const item = this.items.get(id);
    return item ? { bytes: item.bytes.slice(), type: item.type } : null;
  }
}

/** The path of an upload's content URL: /media/{id}/content/{token}. */
export const CONTENT_PATH = /\/media\/(med_[0-9A-Za-z]+)\/content\/([A-Za-z0-9_-]{32})$/;

/** Where the media storage keeps an upload's bytes: its id and the token of its content URL. */
export function storageKey(id: string, token: string): string {
  return `${id}_${token}`;
}

/**
 * The storage key of an uploaded media record, read from its content URL; an upload made before content
 * URLs carried a token is kept under its bare id.
 */
export function storageKeyOf(record: MediaRecord): string {
  const match = CONTENT_PATH.exec(new URL(record.url).pathname);
  return match && match[1] === record.id ? storageKey(record.id, match[2]!) : record.id;
}
