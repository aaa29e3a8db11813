import type { NetworkId } from "@socialpub/core";

/** What an earlier run posted on one network for an announcement. */
export interface LedgerEntry {
  permalink: string;
  /** When it was posted (Unix ms). */
  at: number;
}

export type LedgerEntries = Partial<Record<NetworkId, LedgerEntry>>;

/**
 * Where direct mode keeps what it posted, beyond the run, for the networks that cannot be asked
 * (Telegram and Discord give no way to find a message by a key of ours). `read` answers {} when
 * nothing is known; a ledger that cannot be read or written says so through `warning` and never fails
 * the announcement for it.
 */
export interface Ledger {
  /** Where the entries are kept, in words, for the log and the summary. */
  readonly description: string;
  read(announcement: string): Promise<LedgerEntries>;
  /** Adds the networks this run posted to (never one read back from an earlier run). */
  write(announcement: string, entries: LedgerEntries): Promise<void>;
}

/** No ledger: only what the networks themselves refuse (Bluesky's record key) protects a re-run. */
export const noLedger: Ledger = {
  description: "nowhere (no Actions cache on this runner)",
  read: async () => ({}),
  write: async () => {},
};
