import type { Effects, MediaRecord } from "@socialpub/core";
import { toMedia } from "../rows.ts";
import type { PostgresCore } from "./core.ts";

export async function insertMedia(core: PostgresCore, media: MediaRecord, effects?: Effects): Promise<void> {
  await core.tx(async (tx) => {
    await tx`INSERT INTO media (id, user_id, url, type, size, status, path, created_at)
             VALUES (${media.id}, ${media.user_id}, ${media.url}, ${media.type}, ${media.size},
                     ${media.status}, ${media.path}, ${media.created_at})`;
    await core.writeEffects(tx, effects);
  });
}

export async function getMedia(core: PostgresCore, userId: string, id: string): Promise<MediaRecord | null> {
  const row = await core.one(() => core.sql`SELECT * FROM media WHERE id = ${id} AND user_id = ${userId}`);
  return row ? toMedia(row) : null;
}
