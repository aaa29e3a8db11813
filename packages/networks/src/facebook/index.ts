// Facebook as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { facebookAdapter } from "./adapter.ts";
import { facebookDescription } from "./describe.ts";

export const facebookNetwork = defineNetwork(facebookDescription, facebookAdapter);
