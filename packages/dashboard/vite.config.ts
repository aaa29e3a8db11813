import { defineConfig } from "vite";

// The page is served by the reference server from dist/: no CDN, no inline script (the server's
// Content-Security-Policy allows only files from its own origin).
export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    // Everything as files under assets/, nothing inlined as data: URLs.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  logLevel: "warn",
});
