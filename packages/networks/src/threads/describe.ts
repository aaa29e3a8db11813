// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

/**
 * Reading the profile, publishing, reading a post's insights (its figures), and replying: a thread's
 * later parts and the first comment are the account's replies (threads_manage_replies), read back
 * after a lost answer among its replies (threads_read_replies).
 */
export const THREADS_DEFAULT_SCOPES = [
  "threads_basic",
  "threads_content_publish",
  "threads_manage_insights",
  "threads_manage_replies",
  "threads_read_replies",
];

export const threadsDescription = {
  id: "threads",
  name: NETWORK_RULES.threads.name,
  connect: {
    kind: "oauth",
    scopes: THREADS_DEFAULT_SCOPES,
    pkce: false,
    page: "Threads' own page",
    fields: [],
  },
  settings: oauthSettings(
    "https://graph.threads.net: the Graph API and its token endpoints",
    "https://threads.net/oauth/authorize",
  ),
  rules: NETWORK_RULES.threads,
  // Threads' documented publishing limit: 250 posts per 24 hours per profile.
  pacing: [{ count: 250, windowMs: 24 * 60 * 60_000 }],
} as const satisfies NetworkDescription<"threads">;
