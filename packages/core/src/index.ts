// Public surface of @socialpub/core. Each area adds its exports here.
export * from "./contract/index.ts";
export type * from "./store/types.ts";
