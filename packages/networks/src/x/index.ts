// X as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { xAdapter } from "./adapter.ts";
import { xDescription } from "./describe.ts";

export const xNetwork = defineNetwork(xDescription, xAdapter);
