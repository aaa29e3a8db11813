import type { Effects } from "./effects.ts";

export interface MediaRecord {
  id: string;
  user_id: string;
  url: string;
  type: string;
  size: number;
  status: "processing" | "ready";
  /** Where uploaded bytes are kept (server data folder), or null for a remote URL. */
  path: string | null;
  created_at: number;
}

/** Media uploaded or referenced by URL. */
export interface MediaStore {
  insertMedia(media: MediaRecord, effects?: Effects): Promise<void>;
  getMedia(userId: string, id: string): Promise<MediaRecord | null>;
}
