import type { Store } from "@socialpub/core";
import { FakeClock, type ServiceTarget } from "@socialpub/core/testing";
import { createLogger } from "../../src/logging.ts";
import { FileMediaStorage } from "../../src/media/file-media-storage.ts";
import { startServer } from "../../src/server.ts";

/**
 * A conformance target that is the real server on port 0: each request the suite builds on
 * http://localhost is sent over HTTP to the server, and the answer read back from the socket. Uploaded
 * media go to files in `mediaDir`, as in the real process.
 */
export async function httpTarget(
  store: Store,
  mediaDir: string,
  onClose: () => void = () => {},
): Promise<ServiceTarget> {
  const clock = new FakeClock();
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    store,
    clock,
    logger: createLogger({ level: "silent" }),
    service: { mediaStorage: new FileMediaStorage(mediaDir), allowPrivateWebhookUrls: true },
  });
  return {
    store,
    clock,
    fetch: forwardTo(server.url),
    close: async () => {
      await server.close();
      await store.close();
      onClose();
    },
  };
}

/** Sends a request the suite built on http://localhost to `origin` instead, over real HTTP. */
export function forwardTo(origin: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const { pathname, search } = new URL(request.url);
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    return fetch(new URL(pathname + search, origin), {
      method: request.method,
      headers: request.headers,
      body: hasBody ? await request.arrayBuffer() : null,
      redirect: "manual",
    });
  };
}
