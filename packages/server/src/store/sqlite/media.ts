import type { Effects, MediaRecord } from "@socialpub/core";
import { toMedia } from "../rows.ts";
import type { SqliteCore } from "./core.ts";

export async function insertMedia(core: SqliteCore, media: MediaRecord, effects?: Effects): Promise<void> {
  await core.write(() => {
    core.run(
      "INSERT INTO media (id, user_id, url, type, size, status, path, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      media.id,
      media.user_id,
      media.url,
      media.type,
      media.size,
      media.status,
      media.path,
      media.created_at,
    );
    core.writeEffects(effects);
  });
}

export async function getMedia(core: SqliteCore, userId: string, id: string): Promise<MediaRecord | null> {
  const row = core.get("SELECT * FROM media WHERE id = ? AND user_id = ?", id, userId);
  return row ? toMedia(row) : null;
}
