// LinkedIn as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { linkedinAdapter } from "./adapter.ts";
import { linkedinDescription } from "./describe.ts";

export const linkedinNetwork = defineNetwork(linkedinDescription, linkedinAdapter);
