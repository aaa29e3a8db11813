// How socialpub posts to Bluesky: see README.md in this folder.
export {
  BLUESKY_PACING,
  type BlueskyAdapterOptions,
  blueskyAdapter,
  DEFAULT_SERVICE,
  permalinkOf,
} from "./adapter.ts";
export { recordKeyFor } from "./record-key.ts";
