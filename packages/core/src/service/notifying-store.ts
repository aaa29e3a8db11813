import type { Store } from "../store/types.ts";

/** The Store methods that can write events to the outbox. Keep in step with `Effects` in types.ts. */
const WRITES_EVENTS: ReadonlySet<PropertyKey> = new Set<keyof Store>([
  "putAccount",
  "updateAccount",
  "deleteAccount",
  "insertPost",
  "deletePost",
  "transitionPost",
  "finishTargets",
  "reportMetrics",
  "appendEvents",
  "insertMedia",
  "resendEvent",
  "settleAnalyticsDay",
  "settleEndingGrants",
]);

/**
 * The store as the service's handlers, scheduler and daily analytics use it: after each write that can
 * add events, `onEvents` runs (and is awaited, so the worker's timer is set before the write's caller
 * goes on), so the delivery worker sends them at once rather than on a poll. Every other property is
 * the store's own.
 */
export function notifyOnEvents(store: Store, onEvents: () => Promise<void>): Store {
  // Made once per method, not on every call: every request reads the store through this proxy.
  const methods = new Map<PropertyKey, { of: unknown; as: unknown }>();
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const made = methods.get(property);
      if (made?.of === value) return made.as;
      const method = WRITES_EVENTS.has(property)
        ? async (...args: unknown[]) => {
            const result: unknown = await value.apply(target, args);
            await onEvents();
            return result;
          }
        : value.bind(target);
      methods.set(property, { of: value, as: method });
      return method;
    },
  });
}
