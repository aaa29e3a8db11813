// Public surface of @socialpub/core: every entry point at once. Each layer is also its own entry, so a
// program loads only what it uses: @socialpub/core/contract (zod schemas), /client (the typed client and
// webhook verification), /service (the reference service), /testing (conformance suites).

export * from "./client/index.ts";
export * from "./contract/index.ts";
// Both layers name this shape; the root keeps the service's, as it always has.
export type { OAuthConnectStart } from "./service/index.ts";
export * from "./service/index.ts";
