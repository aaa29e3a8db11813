import type { MediaFile } from "@socialpub/core";

/** Whether TikTok may fetch the file itself: its URL is on a domain verified in the app's settings. */
export function pullable(config: { verifiedDomains: readonly string[] }, file: MediaFile): boolean {
  let host: string;
  try {
    host = new URL(file.url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return config.verifiedDomains.some((d) => host === d || host.endsWith(`.${d}`));
}
