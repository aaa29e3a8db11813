// Telegram as the registry holds it: its description (describe.ts) and the adapter built from its settings.
import { defineNetwork } from "../describe.ts";
import { telegramAdapter } from "./adapter.ts";
import { telegramDescription } from "./describe.ts";

export { telegramAdapter } from "./adapter.ts";

export const telegramNetwork = defineNetwork(telegramDescription, telegramAdapter);
