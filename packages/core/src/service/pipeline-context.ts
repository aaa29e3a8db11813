import type { Caller, KeepAnswer, RequestContext, ServiceDeps } from "./context.ts";

/** A request without an Idempotency-Key has no answer to keep. */
export const noAnswer: KeepAnswer = () => undefined;

/**
 * The context runRoute hands a handler. Its URL is parsed when a handler first asks: GET /posts/{id},
 * the most frequent call, never does.
 *
 * A class, not an object literal with a `get url()` of its own. With a getter made afresh per request,
 * every request's objects outlived V8's young-generation collections and were copied into its old
 * generation — the larger part of what a GET /posts/{id} left there — and full collections came
 * every second or two under load: V8 files an accessor in the object's hidden class (its map), so each
 * context got a map of its own, and maps live in the old generation, from where the getter's closure
 * reached the rest (docs/performance.md, "What a request leaves in the old generation").
 */
export class PipelineContext implements RequestContext {
  readonly deps: ServiceDeps;
  readonly request: Request;
  readonly requestId: string;
  readonly params: Record<string, string>;
  query: unknown = {};
  body: unknown = undefined;
  caller!: Caller;
  keptAnswer: KeepAnswer = noAnswer;
  upload?: { bytes: Uint8Array<ArrayBuffer>; type: string };
  #url: URL | undefined;

  constructor(deps: ServiceDeps, request: Request, requestId: string, params: Record<string, string>) {
    this.deps = deps;
    this.request = request;
    this.requestId = requestId;
    this.params = params;
  }

  get url(): URL {
    this.#url ??= new URL(this.request.url);
    return this.#url;
  }
}
