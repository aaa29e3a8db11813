// YouTube as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { youtubeAdapter } from "./adapter.ts";
import { youtubeDescription } from "./describe.ts";

export const youtubeNetwork = defineNetwork(youtubeDescription, youtubeAdapter);
