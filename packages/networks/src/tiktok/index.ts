// TikTok as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { tiktokAdapter } from "./adapter.ts";
import { tiktokDescription } from "./describe.ts";

export const tiktokNetwork = defineNetwork(tiktokDescription, tiktokAdapter);
