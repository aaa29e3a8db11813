// Discord as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { discordAdapter } from "./adapter.ts";
import { discordDescription } from "./describe.ts";

export { discordAdapter } from "./adapter.ts";

export const discordNetwork = defineNetwork(discordDescription, discordAdapter);
