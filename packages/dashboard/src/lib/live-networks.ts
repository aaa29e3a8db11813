import { type ConnectField, DESCRIPTIONS } from "@socialpub/networks/descriptions";
import type { NetworkId } from "../api/types.ts";

/** One credential a network takes on POST /accounts/connect with a live key. */
export type CredentialField = ConnectField;

/**
 * The networks a live key can connect by pasting credentials (docs/api.md, "Live keys and live
 * publishing"), and what each asks for, as each network's description says.
 */
export const LIVE_NETWORKS: ReadonlyMap<NetworkId, readonly CredentialField[]> = new Map(
  DESCRIPTIONS.filter((d) => d.connect.kind === "credentials").map((d) => [d.id, d.connect.fields]),
);

/**
 * The connect body from what was typed: empty optional fields left out, a numeric id (a Telegram
 * chat) sent as a number (the API takes @name or a numeric id).
 */
export function connectBody(platform: NetworkId, form: FormData): Record<string, unknown> {
  const body: Record<string, unknown> = { platform };
  for (const field of LIVE_NETWORKS.get(platform) ?? []) {
    const value = String(form.get(field.name) ?? "").trim();
    if (value === "") continue;
    body[field.name] = field.numericId && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return body;
}
