// Reddit as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { redditAdapter } from "./adapter.ts";
import { redditDescription } from "./describe.ts";

export const redditNetwork = defineNetwork(redditDescription, redditAdapter);
