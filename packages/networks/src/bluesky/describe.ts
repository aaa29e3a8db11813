// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES, type PacingRule } from "@socialpub/core";
import type { NetworkDescription } from "../describe.ts";

/**
 * Bluesky's write limits per account are points: 5000 an hour and 35000 a day, and creating a record
 * costs 3, so at most 1666 posts an hour and 11666 a day.
 */
export const BLUESKY_PACING: readonly PacingRule[] = [
  { count: Math.floor(5000 / 3), windowMs: 60 * 60_000 },
  { count: Math.floor(35000 / 3), windowMs: 24 * 60 * 60_000 },
];

export const blueskyDescription = {
  id: "bluesky",
  name: NETWORK_RULES.bluesky.name,
  connect: {
    kind: "credentials",
    fields: [
      { name: "handle", label: "Handle", secret: false, required: true, placeholder: "name.bsky.social" },
      {
        name: "app_password",
        label: "App password",
        secret: true,
        required: true,
        help: "Made in Bluesky's settings under App passwords; not the account's password.",
      },
      {
        name: "service",
        label: "PDS",
        secret: false,
        required: false,
        placeholder: "https://bsky.social",
        help: "The account's server; leave it empty for bsky.social.",
        origin: true,
      },
    ],
  },
  settings: [
    {
      name: "service_url",
      option: "defaultService",
      kind: "url",
      about: "the PDS a connect without `service` logs in to (https://bsky.social)",
    },
  ],
  rules: NETWORK_RULES.bluesky,
  pacing: BLUESKY_PACING,
} as const satisfies NetworkDescription<"bluesky">;
