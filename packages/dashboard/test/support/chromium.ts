import { findChromium } from "../../scripts/chromium.ts";

/**
 * The browser tests skip where there is no Chromium (no npm package ships one that runs everywhere),
 * saying so in their titles; in CI (CI=true) they run anyway and fail at their start, since the
 * tests' preparation installs Chromium there.
 */
export const NO_CHROMIUM = findChromium() === null && process.env.CI !== "true";

/** A browser suite's title, with why it is skipped when it is. */
export function inChromium(title: string): string {
  return NO_CHROMIUM ? `${title} (skipped: no Chromium; install one, or set CHROMIUM_PATH)` : title;
}
