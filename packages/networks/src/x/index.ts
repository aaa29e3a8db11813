// X as the registry holds it: its description (describe.ts) and the adapter built from its settings;
// and posting with OAuth 1.0a user-context credentials without the service (direct.ts).
import { defineNetwork } from "../describe.ts";
import { xAdapter } from "./adapter.ts";
import { xDescription } from "./describe.ts";

export { X_API_URL, type XAdapterOptions, xAdapter } from "./adapter.ts";
export {
  findXDirect,
  publishXDirect,
  X_OAUTH1_FIELDS,
  type XDirectOptions,
  type XDirectPost,
  type XDirectResult,
  type XFoundThread,
} from "./direct.ts";
export { type XOAuth1Credentials, type XOAuth1Signer, xOAuth1Signer } from "./oauth1.ts";

export const xNetwork = defineNetwork(xDescription, xAdapter);
