import { measure, NETWORK_RULES, truncate } from "@socialpub/core";

/*
 * What X makes of a post: its text as X takes it, and its address. The publish sends the one and answers
 * the other; reading a lost attempt's post back compares the same text and answers the same address.
 */

/** The post's permalink: X resolves it to the account's own address. */
export const xPermalink = (id: string) => `https://x.com/i/web/status/${id}`;

/**
 * The text as X weighs it (a URL 23, most non-Latin characters 2). The service has already fitted the
 * caption by the same rule; a text that still weighs more (given to the adapter directly) is cut the
 * same way rather than refused by X.
 */
export function fitX(text: string): string {
  const limit = NETWORK_RULES.x.textLimit;
  return measure(text, "weighted") <= limit ? text : truncate(text, limit, "weighted");
}
