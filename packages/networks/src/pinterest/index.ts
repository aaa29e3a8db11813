// Pinterest as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { pinterestAdapter } from "./adapter.ts";
import { pinterestDescription } from "./describe.ts";

export const pinterestNetwork = defineNetwork(pinterestDescription, pinterestAdapter);
