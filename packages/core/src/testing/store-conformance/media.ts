import { beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../ids.ts";
import type { Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** Media, and the store's health. */
export function describeMedia(fixture: StoreFixture): void {
  const { user } = fixture;
  let store: Store;

  describe("media and health", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("media is scoped to its user", async () => {
      const a = await user();
      const b = await user();
      const media = {
        id: newId("med", T0),
        user_id: a.id,
        url: "https://example.com/a.png",
        type: "image/png",
        size: 0,
        status: "ready" as const,
        path: null,
        created_at: T0,
      };
      await store.insertMedia(media);
      expect(await store.getMedia(a.id, media.id)).toEqual(media);
      expect(await store.getMedia(b.id, media.id)).toBeNull();
    });

    it("ping answers while the store is open", async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
