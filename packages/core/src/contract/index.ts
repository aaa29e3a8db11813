export * from "./errors.ts";
export * from "./events.ts";
export * from "./media-kinds.ts";
export * from "./networks.ts";
export * from "./plans.ts";
export * from "./requests.ts";
export * from "./resources.ts";
export * from "./rich.ts";
