import type { ChildMessage, ParentMessage } from "./child.ts";

// The child's side of the protocol in ./child.ts, in a file of its own: a child imports only this, so
// its bundle holds none of the parent's side (which bundles children, and so imports the bundler).

/** In a child: answers the parent's messages. `close` runs on "stop", then the process exits. */
export function serveParent(
  url: string,
  close: () => Promise<void>,
  counters: () => Record<string, number> = () => ({}),
): void {
  const send = (message: ChildMessage) => process.send?.(message);
  process.on("message", (message: ParentMessage) => {
    if (message.type === "stats")
      send({ type: "stats", rss: process.memoryUsage.rss(), counters: counters() });
    if (message.type === "stop") {
      void close().finally(() => process.exit(0));
    }
  });
  // A parent that dies must not leave a server behind.
  process.on("disconnect", () => {
    void close().finally(() => process.exit(0));
  });
  send({ type: "ready", url });
}
