import { accessSync, constants } from "node:fs";

/** Where Debian's `chromium` package (and other distributions' builds) put the browser. */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"];

/**
 * The headless browser the end-to-end tests and the screenshot script drive: CHROMIUM_PATH when set,
 * else the system's Chromium. Null when there is none.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : CANDIDATES;
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // next
    }
  }
  return null;
}

export const INSTALL_HINT =
  "Install Chromium from your distribution (Debian/Ubuntu: `apt-get install -y chromium`, which " +
  "the tests' preparation runs in CI, as root), or set CHROMIUM_PATH to a Chromium binary.";

/**
 * Flags for Chromium in containers and CI: no sandbox (it needs user namespaces, often unavailable, and
 * runs as root there), /tmp instead of a small /dev/shm, and no GPU.
 */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"];
