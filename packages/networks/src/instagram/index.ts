// Instagram as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { instagramAdapter } from "./adapter.ts";
import { instagramDescription } from "./describe.ts";

export const instagramNetwork = defineNetwork(instagramDescription, instagramAdapter);
