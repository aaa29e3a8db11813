// How socialpub posts to Bluesky: see README.md in this folder. Bluesky as the registry holds it: its
// description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { blueskyAdapter } from "./adapter.ts";
import { blueskyDescription } from "./describe.ts";

export {
  BLUESKY_PACING,
  type BlueskyAdapterOptions,
  blueskyAdapter,
  DEFAULT_SERVICE,
  permalinkOf,
} from "./adapter.ts";
export { recordKeyFor } from "./record-key.ts";

export const blueskyNetwork = defineNetwork(blueskyDescription, blueskyAdapter);
