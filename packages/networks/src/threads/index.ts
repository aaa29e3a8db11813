// Threads as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { threadsAdapter } from "./adapter.ts";
import { threadsDescription } from "./describe.ts";

export const threadsNetwork = defineNetwork(threadsDescription, threadsAdapter);
