import type { Effects, MediaRecord } from "../types.ts";
import { copy, type MemoryTables } from "./tables.ts";

export async function insertMedia(db: MemoryTables, media: MediaRecord, effects?: Effects): Promise<void> {
  if (db.media.has(media.id)) throw new Error(`Media ${media.id} already exists.`);
  db.media.set(media.id, copy(media));
  db.writeEffects(effects);
}

export async function getMedia(db: MemoryTables, userId: string, id: string): Promise<MediaRecord | null> {
  const media = db.media.get(id);
  return media && media.user_id === userId ? copy(media) : null;
}
