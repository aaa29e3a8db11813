import type { AddressInfo } from "node:net";
import {
  type Clock,
  createService,
  type Service,
  type ServiceOptions,
  type Store,
  systemClock,
} from "@socialpub/core";
import { createDashboard, type DashboardOptions } from "@socialpub/dashboard";
import { type HttpTimeouts, listen, type NodeAdapterName, type TlsFiles } from "./http/http-server.ts";
import { createLogger, type Logger, type RequestLogFields } from "./logging.ts";
import { DEFAULT_RETENTION_DAYS, HistoryPruner, type RetentionOptions } from "./retention.ts";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export interface StartServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** The caller owns the store: `close()` leaves it open. */
  store: Store;
  clock?: Clock;
  logger?: Logger;
  /** Largest request body in bytes; 1 MiB by default. */
  bodyLimit?: number;
  /** How long `close()` lets in-flight requests finish before it cuts their connections. */
  shutdownGraceMs?: number;
  /** Limits on slow clients (headers, whole request, idle keep-alive); 15 s, 30 s and 5 s by default. */
  timeouts?: Partial<HttpTimeouts>;
  /**
   * Passed through to the service (rate limit, …). Without `liveAdapters` live keys publish through
   * the real Bluesky, Telegram and Discord; without `credentialKeyring` live accounts cannot be
   * connected, a database that already holds some is refused, and webhook signing secrets are stored
   * in the clear (`socialpub-server start` always gives one on a database file).
   */
  service?: Omit<ServiceOptions, "store" | "clock" | "logger" | "maxBodyBytes">;
  /** Serve the sandbox dashboard at `/` (the API stays under /api/v1). Off by default. */
  dashboard?: boolean | DashboardOptions;
  /**
   * How long delivered (or failed for good) webhook events, with their deliveries and attempts, are
   * kept: 30 days by default, pruned at start and hourly. `false` keeps them forever.
   */
  retention?: RetentionOptions | false;
  /** Which Node adapter serves the handler (see `HttpServerOptions.adapter`); both behave the same. */
  adapter?: NodeAdapterName;
  /**
   * Behind a reverse proxy that sets X-Forwarded-Proto and X-Forwarded-Host (or Forwarded): the URLs
   * the service builds use the scheme and host the client reached the proxy by. Off by default, since
   * a client that reaches the server directly could set them.
   */
  trustProxy?: boolean;
  /** Serve HTTPS with this certificate and key (PEM); plain HTTP without. */
  tls?: TlsFiles;
}

export interface RunningServer {
  /** Origin, e.g. http://127.0.0.1:8787; the API lives under `${url}/api/v1` and `${url}/v1`. */
  readonly url: string;
  readonly service: Service;
  /**
   * Stops accepting, finishes in-flight requests, stops pruning, the scheduler and webhook delivery
   * (attempts in flight get their grace period). The store stays open.
   */
  close(): Promise<void>;
}

/**
 * The reference service as a process: its scheduler started (publishing posts that fell due while the
 * server was down), webhook delivery started (sending what the outbox still owes), its fetch handler
 * served over HTTP, one log line per request.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  // Request lines hold only the allow-listed fields of RequestLogFields (none can carry a credential), so
  // they skip the redaction pass, which cost more than the rest of writing the line.
  const requestLog = logger.child({}, { redact: [] });
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const dashboard = options.dashboard
    ? createDashboard(options.dashboard === true ? {} : options.dashboard)
    : null;
  if (dashboard && !dashboard.built) {
    logger.warn({}, "the dashboard is not built: run `pnpm --filter @socialpub/dashboard build`");
  }
  if (!options.service?.credentialKeyring && (await options.store.countAccountsWithCredentials()) > 0) {
    throw new Error(
      "the database holds live accounts' credentials and no secret key was given to open them: set SOCIALPUB_SECRET_KEY (or pass --secret-key-file) to the key they were sealed with",
    );
  }
  // Loaded only when a server starts: the adapters bring the networks' client libraries with them, which
  // the CLI's other commands have no use for.
  const liveAdapters =
    options.service?.liveAdapters ?? (await import("./live/network-adapters.ts")).networkAdapters();
  const service = createService({
    ...options.service,
    liveAdapters,
    ...(options.trustProxy && { trustProxy: true }),
    store: options.store,
    logger,
    maxBodyBytes: bodyLimit,
    ...(options.clock && { clock: options.clock }),
  });
  await service.start();
  const pruner =
    options.retention === false
      ? null
      : new HistoryPruner({
          ...(options.retention ?? { days: DEFAULT_RETENTION_DAYS }),
          store: options.store,
          clock: options.clock ?? systemClock,
          logger,
        });
  // In the background: a large backlog (the first start after an upgrade) must not hold up listening.
  pruner?.start();
  let handler = service.fetch;
  if (dashboard) {
    // The page's own paths first; everything else, the API included, is the service's.
    handler = (request) => Promise.resolve(dashboard.handle(request) ?? service.fetch(request));
  }
  let http: Awaited<ReturnType<typeof listen>>;
  try {
    http = await listen(handler, {
      host: options.host ?? "127.0.0.1",
      port: options.port ?? 8787,
      bodyLimit,
      shutdownGraceMs: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
      ...(options.timeouts && { timeouts: options.timeouts }),
      ...(options.adapter && { adapter: options.adapter }),
      ...(options.tls && { tls: options.tls }),
      onComplete: ({ requestId, method, path, status, durationMs }) => {
        const fields: RequestLogFields = {
          request_id: requestId,
          method,
          path,
          status,
          duration_ms: durationMs,
        };
        // 501 answers a method the client chose (PROPFIND, CONNECT…): the client's doing, not a failure.
        if (status >= 500 && status !== 501) requestLog.error(fields, "request failed");
        // The dashboard's files (a page load fetches several) would bury the API's requests.
        else if (isStaticFile(method, path, status)) requestLog.debug(fields, "request");
        else requestLog.info(fields, "request");
      },
      onError: (err, requestId) => logger.error({ err, request_id: requestId }, "unexpected error"),
      refuseMethod: (method, pathname) => service.refuseMethod(method, pathname),
    });
  } catch (error) {
    await pruner?.stop();
    await service.close();
    throw error;
  }

  const address = (http.server.address() as AddressInfo).address;
  if (!options.tls && !options.trustProxy && !isLoopback(address)) {
    logger.warn(
      { address },
      `listening on ${address} over plain HTTP: API keys would cross the network readable; serve HTTPS (--tls-cert and --tls-key) or put a TLS reverse proxy in front (--trust-proxy), as docs/deploy.md says`,
    );
  }

  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    service,
    close: () => {
      closing ??= (async () => {
        await http.close();
        await pruner?.stop();
        await service.close();
      })();
      return closing;
    },
  };
}

/** A file the dashboard served: outside the API (/api/…, /v1/…, /healthz), read successfully. */
function isStaticFile(method: string, path: string, status: number): boolean {
  if ((method !== "GET" && method !== "HEAD") || (status !== 200 && status !== 304)) return false;
  return !(path.startsWith("/api/") || path.startsWith("/v1/") || path === "/healthz");
}

/** 127.0.0.0/8 and ::1 (also as ::ffff:127.x.y.z): reachable from this machine only. */
function isLoopback(address: string): boolean {
  return address.startsWith("127.") || address === "::1" || address.startsWith("::ffff:127.");
}
