import { Hono } from "hono";
import { CONTRACT_MESSAGES } from "../contract/errors.ts";
import { ConnectAccountBody } from "../contract/requests.ts";
import type { Account } from "../contract/resources.ts";
import { consoleLogger, type Logger } from "../logger.ts";
import { type LookupHost, systemLookup } from "../net/public-url.ts";
import type { NetworkAdapters } from "../networks/adapter.ts";
import { buildOpenApiDocument } from "../openapi/document.ts";
import { newFollowerReads } from "../publishing/follower-refresh.ts";
import { InFlightSweep } from "../publishing/in-flight-sweep.ts";
import { createMediaFetch, type MediaFetch } from "../publishing/media-fetch.ts";
import {
  adapterResolver,
  defaultPublishKey,
  type Publishing,
  type PublishingOptions,
  type PublishKeyFor,
  publishingOptions,
} from "../publishing/publishing.ts";
import { publishClaimedPost } from "../publishing/run-attempts.ts";
import { metricsWork, retryWork } from "../publishing/workers.ts";
import { DailyAnalytics } from "../scheduler/daily-analytics.ts";
import { DueTimer } from "../scheduler/due-timer.ts";
import { Scheduler } from "../scheduler/scheduler.ts";
import type { CredentialKeyring } from "../secrets/credential-keyring.ts";
import { sealWebhookSecrets } from "../secrets/webhook-secrets.ts";
import type { Store, UserRecord } from "../store/types.ts";
import { StoreUnavailableError } from "../store/unavailable.ts";
import { type Clock, systemClock } from "../time/clock.ts";
import { DeliveryWorker, type WebhookDeliveryOptions } from "../webhooks/delivery/worker.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./body.ts";
import type { ServiceDeps } from "./context.ts";
import { computeAnalytics } from "./handlers/analytics.ts";
import { connectLiveAccountFor, startOAuthConnectFor } from "./handlers/connect-live-account.ts";
import { badRequest, HttpError } from "./http-error.ts";
import { DEFAULT_RATE_LIMIT, RateLimiter, type RateLimitOptions } from "./limits.ts";
import { ListPageCache } from "./list-page-cache.ts";
import { type MediaStorage, MemoryMediaStorage } from "./media-storage.ts";
import { notifyOnEvents } from "./notifying-store.ts";
import { EXPIRING_AHEAD_MS } from "./oauth/grant.ts";
import { fillGrantEnds } from "./oauth/grant-backfill.ts";
import { endingGrantsWork } from "./oauth/grant-sweep.ts";
import type { OAuthConnectStart } from "./oauth/start-connect.ts";
import { PerUserQueue } from "./per-user-queue.ts";
import { runRoute } from "./pipeline.ts";
import { requestIdFor } from "./request-id.ts";
import { errorResponse, withHeaders } from "./responses.ts";
import { type AnyRoute, API_BASE, type ApiBase, fullPath, SHORT_API_BASE } from "./route.ts";
import { ROUTES } from "./routes/index.ts";
import { toAccount } from "./serialize.ts";
import { describeBodyError } from "./zod-errors.ts";

export interface ServiceOptions {
  store: Store;
  clock?: Clock;
  logger?: Logger;
  /** Largest request body accepted; 1 MiB by default. */
  maxBodyBytes?: number;
  /** Requests per key per window; `false` turns the short-term limit off. */
  rateLimit?: RateLimitOptions | false;
  /**
   * The adapters live keys publish through, by network id (the server passes @socialpub/networks').
   * A network absent here cannot be connected with a live key. Test keys always use the sandbox.
   */
  liveAdapters?: NetworkAdapters;
  /**
   * Seals live accounts' credentials and webhook signing secrets; without it live accounts cannot be
   * connected or used, and webhook secrets are kept as made (`whsec_…`). Given one, the service seals
   * at start the secrets a store still keeps in the clear.
   */
  credentialKeyring?: CredentialKeyring;
  /** Publishing timings: the publish-now wait, attempt timeout, retry delays, metrics schedule. */
  publishing?: PublishingOptions;
  /**
   * The key a post is published under on each network (PublishInput.key); by default derived from the
   * post's id and creation time. The GitHub Action's direct mode derives it from the release instead,
   * so a re-run of the workflow cannot make a second Bluesky record.
   */
  publishKey?: PublishKeyFor;
  /**
   * The server's address as networks and browsers reach it (SOCIALPUB_PUBLIC_URL), without a trailing
   * slash: OAuth networks send the user back to `${publicUrl}/api/v1/accounts/callback/<network>`.
   * Without it, OAuth networks cannot be connected.
   */
  publicUrl?: string;
  /**
   * Accept URLs a user gives (webhook URLs, media URLs, a Bluesky PDS, a Discord webhook) on loopback,
   * private and link-local addresses (local testing only).
   */
  allowPrivateWebhookUrls?: boolean;
  /** How webhook hosts are resolved for that check; the system resolver by default. */
  lookupHost?: LookupHost;
  /**
   * How a media URL is fetched before it is uploaded to a network (one hop, redirects not followed);
   * by default a connection that refuses private addresses unless they are allowed. Tests route it.
   */
  mediaFetch?: MediaFetch;
  /** Where uploaded media bytes are kept; in memory by default. */
  mediaStorage?: MediaStorage;
  /** How webhook events are delivered: transport, timeout, concurrency, jitter (docs/api.md). */
  webhookDelivery?: WebhookDeliveryOptions;
  /**
   * The service runs behind a reverse proxy that sets X-Forwarded-Proto and X-Forwarded-Host (or
   * Forwarded): the absolute URLs it answers with (uploaded media's) use the scheme and host they name
   * rather than the request's own. Off by default: without such a proxy, clients could set them.
   */
  trustProxy?: boolean;
}

export interface Service {
  /** Serves one request: the whole API under /api/v1 and under /v1, plus /healthz. Never throws. */
  fetch(request: Request): Promise<Response>;
  /**
   * Frees the Idempotency-Keys a crash left claimed, and arms the scheduler (releasing posts a crash
   * left in `publishing`), the daily analytics event and the webhook delivery worker.
   */
  start(): Promise<void>;
  /**
   * Stops the timers and waits for work in progress (webhook attempts in flight up to their grace
   * period). Does not close the store.
   */
  close(): Promise<void>;
  /**
   * The answer to a method no route serves on that path: 405 with Allow where the path exists, 501 for
   * a method the service serves nowhere, else 404. A server calls it directly for the methods a
   * `Request` cannot carry (CONNECT, TRACE, TRACK), so those get the same JSON answer.
   */
  refuseMethod(method: string, pathname: string): Response;
  readonly scheduler: Scheduler;
  readonly deliveries: DeliveryWorker;
  /** The worker that makes due retries of networks' attempts (tests run it with runDue). */
  readonly retries: DueTimer;
  /** The worker that reads live posts' figures on their schedule. */
  readonly metricsReader: DueTimer;
  /** The sweep that turns live accounts whose grant we cannot refresh `expiring`, then `reauth_required`. */
  readonly grantSweep: DueTimer;
  /**
   * Connects a live account for `user` as POST /accounts/connect with a live key does (the network
   * checks the credentials at once, they are sealed, the plan's profiles apply, account.connected is
   * written): what an administration command runs when it acts for a user without the user's key.
   * `body` is the request body; throws HttpError with the status and message the API would answer.
   */
  connectLiveAccount(user: UserRecord, body: unknown): Promise<{ created: boolean; account: Account }>;
  /**
   * Starts an OAuth connect for `user` as POST /accounts/connect with a live key does for a network
   * that connects through its own page: the pending connect is kept in the store, and the answer says
   * which address to open. The server at the public URL, on the same store and secret key, finishes it.
   */
  startOAuthConnect(user: UserRecord, body: unknown): Promise<OAuthConnectStart>;
}

const openApiDocuments = new Map<ApiBase, string>();

/**
 * The OpenAPI document of ROUTES under `base`, as GET /openapi.json answers it: built on first request,
 * then kept (the routes never change at runtime, so every service shares it).
 */
function openApiDocument(base: ApiBase): string {
  let document = openApiDocuments.get(base);
  if (document === undefined) {
    document = JSON.stringify(buildOpenApiDocument(ROUTES, base));
    openApiDocuments.set(base, document);
  }
  return document;
}

/** The reference service as a web-standard handler: `fetch(Request) → Response`. */
export function createService(options: ServiceOptions): Service {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;
  const allowPrivateUrls = options.allowPrivateWebhookUrls ?? false;
  const lookupHost = options.lookupHost ?? systemLookup;
  const deliveries = new DeliveryWorker({
    ...options.webhookDelivery,
    store: options.store,
    clock,
    logger,
    allowPrivateUrls,
    lookupHost,
    keyring: options.credentialKeyring ?? null,
  });
  // Whatever writes events through the service wakes the worker.
  const store = notifyOnEvents(options.store, () => deliveries.notify());
  const publishingSettings = publishingOptions(options.publishing);
  const scheduler = new Scheduler({
    store,
    clock,
    logger,
    concurrency: publishingSettings.concurrency,
    publish: async (post, now) => {
      await publishClaimedPost(deps, post, now);
    },
  });
  const shutdown = new AbortController();
  const retries = new DueTimer(
    "publishing retries",
    retryWork(() => deps),
    clock,
    logger,
  );
  const metrics = new DueTimer(
    "reading network figures",
    metricsWork(() => deps),
    clock,
    logger,
  );
  const grants = new DueTimer(
    "turning ending grants expiring",
    endingGrantsWork(() => deps),
    clock,
    logger,
  );
  const inFlight = new InFlightSweep(() => deps);
  const inFlightTimer = new DueTimer("recovering attempts left in flight", inFlight, clock, logger);
  inFlight.attach(inFlightTimer);
  const ownMediaFetch = options.mediaFetch
    ? null
    : createMediaFetch({ allowPrivateAddresses: allowPrivateUrls });
  const publishing: Publishing = {
    options: publishingSettings,
    adapterFor: adapterResolver(options.liveAdapters ?? {}),
    publishKey: options.publishKey ?? defaultPublishKey,
    keyring: options.credentialKeyring ?? null,
    retries,
    metrics,
    grants,
    inFlight,
    mediaFetch: options.mediaFetch ?? ownMediaFetch!.fetch,
    background: new Set(),
    shutdown: shutdown.signal,
    publicUrl: options.publicUrl?.replace(/\/+$/, "") || null,
    refreshes: new Map(),
    followers: newFollowerReads(),
  };
  const daily = new DailyAnalytics({
    store,
    clock,
    logger,
    summarize: (userId) => computeAnalytics(store, userId),
  });
  const deps: ServiceDeps = {
    store,
    clock,
    logger,
    scheduler,
    webhooks: { allowPrivateUrls, lookupHost },
    media: options.mediaStorage ?? new MemoryMediaStorage(),
    publishing,
    perUser: new PerUserQueue(
      options.store.shared && options.store.exclusivelyForUser
        ? (userId, task) => options.store.exclusivelyForUser!(userId, task)
        : undefined,
    ),
    listPages: new ListPageCache(),
    trustProxy: options.trustProxy ?? false,
    openApi: openApiDocument,
  };
  const pipeline = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    rateLimiter:
      options.rateLimit === false
        ? null
        : new RateLimiter(
            options.rateLimit ?? DEFAULT_RATE_LIMIT,
            clock,
            // Instances sharing a store count in it, so the limit holds across them exactly.
            options.store.shared && options.store.countKeyRequest
              ? (keyId, windowStart) => options.store.countKeyRequest!(keyId, windowStart)
              : undefined,
          ),
  };

  let stopListening: (() => Promise<void>) | null = null;

  type Env = { Bindings: { requestId: string } };
  const app = new Hono<Env>();
  for (const route of ROUTES) {
    // Both address forms of the contract: /api/v1/… and /v1/…, each its own entry in the router's
    // table, so a request is matched in one lookup whichever form it uses.
    for (const base of basesOf(route)) {
      app.on(route.method, honoPath(fullPath(route, base)), (c) =>
        runRoute(route, c.req.raw, c.req.param() as Record<string, string>, c.env.requestId, deps, pipeline),
      );
    }
  }
  const refuseMethod = methodRefusal(ROUTES);
  app.notFound((c) => refuseMethod(c.req.method, new URL(c.req.url).pathname));
  app.onError((err) => {
    throw err;
  });

  async function fetch(request: Request): Promise<Response> {
    const requestId = requestIdFor(request, clock.now());
    let response: Response;
    try {
      response = await app.fetch(request, { requestId });
    } catch (err) {
      response = errorToResponse(err, requestId, request);
    }
    return withRequestId(response, requestId);
  }

  function errorToResponse(err: unknown, requestId: string, request: Request): Response {
    if (err instanceof HttpError) return errorResponse(err.status, err.message, err.headers);
    const url = new URL(request.url);
    if (err instanceof StoreUnavailableError) {
      logger.warn(
        { err, request_id: requestId, method: request.method, path: url.pathname },
        "store unavailable",
      );
      return errorResponse(
        503,
        `The service's database is unavailable right now; retry in ${err.retryAfterSeconds} s (a write with the same Idempotency-Key, so it is made once) (request ${requestId}).`,
        { "retry-after": String(err.retryAfterSeconds) },
      );
    }
    logger.error(
      { err, request_id: requestId, method: request.method, path: url.pathname },
      "unexpected error",
    );
    return errorResponse(500, `Internal error (request ${requestId}).`);
  }

  return {
    fetch,
    start: async () => {
      // On a shared store, another instance's writes wake this one's scheduler and delivery worker.
      stopListening =
        (await options.store.listen?.({
          postDue: (at) => scheduler.notify(at),
          deliveriesOwed: () => {
            deliveries.notify().catch((err) => logger.error({ err }, "waking the delivery worker failed"));
          },
          attemptStarted: (at) => inFlight.watch(at),
          grantsChanged: () => {
            store
              .nextGrantChangeAt(EXPIRING_AHEAD_MS)
              .then((at) => at !== null && grants.notify(at))
              .catch((err) => logger.error({ err }, "reading when a grant next ends failed"));
          },
          retryDue: (at) => retries.notify(at),
        })) ?? null;
      // Requests cut off by a crash changed nothing (a change is stored with its answer): free their keys.
      const freed = await store.releaseInterruptedIdempotentRequests();
      if (freed > 0)
        logger.info({ freed }, "freed Idempotency-Keys of requests interrupted before any change");
      // Attempts a crash cut off may have published: their outcome is checked before anything is resent.
      const startedAt = clock.now();
      // On a shared store, attempts that recent may be another instance's, still running: only those
      // older than an attempt's lease are taken as cut off (the store's post leases hand the rest over).
      const interrupted = await store.releaseInterruptedTargets(
        options.store.shared ? startedAt - publishing.options.attemptLeaseMs : startedAt,
        startedAt,
      );
      if (interrupted > 0)
        logger.info(
          { interrupted },
          "attempts interrupted by a stop: checking with the networks before any resend",
        );
      await scheduler.start();
      await retries.start();
      await metrics.start();
      // Before the sweep of ending grants arms: accounts connected before their grant's end was kept.
      try {
        const filled = await fillGrantEnds(deps);
        if (filled > 0)
          logger.info(
            { filled },
            "kept when grants we cannot refresh end, read from their accounts' credentials",
          );
      } catch (err) {
        logger.error(
          { err },
          "reading when connected accounts' grants end failed; they are read again at the next start",
        );
      }
      await grants.start();
      await inFlightTimer.start();
      // Signing secrets kept in the clear by an earlier version (or a service without a key) are sealed
      // once; until then, and should this fail, they are read as they are.
      if (publishing.keyring) {
        try {
          const { sealed, failed } = await sealWebhookSecrets(store, publishing.keyring);
          if (sealed > 0) logger.info({ sealed }, "sealed webhook signing secrets kept in the clear");
          for (const f of failed)
            logger.warn(
              { webhook_id: f.webhook_id, reason: f.reason },
              "a webhook signing secret does not open with this server's secret key; its deliveries fail until it is started with that key",
            );
        } catch (err) {
          logger.error({ err }, "sealing webhook signing secrets failed; they are sealed at the next start");
        }
      }
      // Writes the analytics.daily of days that ended while the service was stopped, then arms.
      await daily.start();
      await deliveries.start();
    },
    close: async () => {
      await stopListening?.();
      stopListening = null;
      await scheduler.stop();
      await retries.stop();
      await metrics.stop();
      await grants.stop();
      await inFlightTimer.stop();
      // Attempts still running after their request answered get their time limit, then are let go:
      // what they leave in flight is checked at the next start.
      await Promise.race([
        Promise.allSettled([...publishing.background]),
        new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref()),
      ]);
      shutdown.abort();
      await ownMediaFetch?.close();
      await daily.stop();
      // Last: the scheduler's final run may have written events.
      await deliveries.stop();
    },
    refuseMethod,
    connectLiveAccount: async (user, body) => {
      const parsed = ConnectAccountBody.safeParse(body);
      if (!parsed.success) throw badRequest(describeBodyError(parsed.error));
      const { created, account } = await connectLiveAccountFor(deps, user, parsed.data);
      return { created, account: toAccount(account) };
    },
    startOAuthConnect: async (user, body) => {
      const parsed = ConnectAccountBody.safeParse(body);
      if (!parsed.success) throw badRequest(describeBodyError(parsed.error));
      return startOAuthConnectFor(deps, user, parsed.data);
    },
    scheduler,
    deliveries,
    retries,
    metricsReader: metrics,
    grantSweep: grants,
  };
}

/** How long close() waits for attempts still running in the background before it lets them go. */
const CLOSE_GRACE_MS = 10_000;

function withRequestId(response: Response, requestId: string): Response {
  return withHeaders(response, { "x-request-id": requestId });
}

const API_BASES: readonly ApiBase[] = [API_BASE, SHORT_API_BASE];
const ROOT_BASE: readonly ApiBase[] = [API_BASE];

/** The prefixes a route answers under: both address forms, or the root alone (/healthz). */
function basesOf(route: AnyRoute): readonly ApiBase[] {
  return route.root ? ROOT_BASE : API_BASES;
}

/** `/posts/{id}` → `/posts/:id` */
function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/** See `Service.refuseMethod`. */
function methodRefusal(routes: readonly AnyRoute[]): (method: string, pathname: string) => Response {
  const allowed = allowedMethods(routes);
  const served = new Set(
    routes.flatMap((route) => (route.method === "GET" ? ["GET", "HEAD"] : [route.method])),
  );
  const servedList = [...served].sort().join(", ");
  return (method, pathname) => {
    const methods = allowed(pathname);
    if (methods.length > 0) {
      return errorResponse(
        405,
        `Method ${method} is not allowed on ${pathname}; allowed: ${methods.join(", ")}.`,
        { allow: methods.join(", ") },
      );
    }
    if (!served.has(method)) {
      return errorResponse(501, `Method ${method} is not implemented; the API uses ${servedList}.`);
    }
    return errorResponse(404, CONTRACT_MESSAGES.notFound);
  };
}

/** For a path that exists under other methods: the methods it allows (GET implies HEAD). */
function allowedMethods(routes: readonly AnyRoute[]): (pathname: string) => string[] {
  const patterns = routes.flatMap((route) =>
    basesOf(route).map((base) => ({
      method: route.method,
      regex: new RegExp(
        `^${fullPath(route, base)
          .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
          .replace(/\{\w+\}/g, "[^/]+")}$`,
      ),
    })),
  );
  return (pathname) => {
    const methods = new Set<string>();
    for (const p of patterns) {
      if (!p.regex.test(pathname)) continue;
      methods.add(p.method);
      if (p.method === "GET") methods.add("HEAD");
    }
    return [...methods].sort();
  };
}
