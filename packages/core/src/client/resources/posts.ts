import type { z } from "zod";
import type { NetworkId } from "../../contract/networks.ts";
import type {
  CreatePostBody,
  ListPostsQuery,
  PublishDraftBody,
  ScheduleBody,
  UpdatePostBody,
} from "../../contract/requests.ts";
import {
  DeleteResult,
  Post,
  PostList,
  type PostStatus,
  PostValidation,
  type Target,
  TargetList,
} from "../../contract/resources.ts";
import { PostContentView } from "../../contract/rich.ts";
import { SocialPublishError } from "../errors.ts";
import { cursorOf, nextPageUrl, type Page } from "../pagination.ts";
import type { Requester, RequestOptions } from "../requester.ts";
import { resourcePath } from "./resource-path.ts";
import { type WaitForOptions, waitForStatus } from "./wait-for-status.ts";

/**
 * A network id (offered by autocomplete), or any other string: the service ignores ids it does not
 * know, so a list written for networks a newer service adds still works with this client.
 */
export type PlatformId = NetworkId | (string & Record<never, never>);

/** A request body whose `platforms` takes PlatformIds, as a mutable or a readonly array. */
type WithPlatformIds<T extends { platforms: string[] }> = Omit<T, "platforms"> & {
  platforms: readonly PlatformId[];
};

export type CreatePostInput = WithPlatformIds<z.input<typeof CreatePostBody>>;

export type ScheduleInput = WithPlatformIds<z.input<typeof ScheduleBody>>;

export type PublishDraftInput = z.input<typeof PublishDraftBody>;

/** What PATCH /posts/{id} may change; what is left out stays as it is. */
export type UpdatePostInput = Omit<z.input<typeof UpdatePostBody>, "platforms"> & {
  platforms?: readonly PlatformId[];
};

export type ListPostsParams = Omit<z.input<typeof ListPostsQuery>, "status" | "limit"> & {
  /** One status, several, or the service's comma-separated form. */
  status?: PostStatus | readonly PostStatus[] | string;
  /** Posts per page: 1–100, default 20 (the service clamps larger values to 100). */
  limit?: number;
};

const path = (id: string) => resourcePath("/posts", id);

export class PostsResource {
  readonly #send: Requester;

  constructor(send: Requester) {
    this.#send = send;
  }

  /**
   * Publishes now, or schedules when `schedule_at` is given; `captions` gives a network its own text
   * (network id → text) instead of `caption`. Safe to retry: it carries an Idempotency-Key.
   */
  async create(body: CreatePostInput, options?: RequestOptions): Promise<Post> {
    return (await this.#send({ method: "POST", path: "/posts", json: body, schema: Post, options })).data;
  }

  /**
   * Checks a post as `create` would, without publishing or storing anything: what each network would
   * get (its parts' text as adapted, the media, notes on what was adapted), or the BadRequestError
   * `create` would throw. Counts as an API call, not as one of the month's posts.
   */
  async validate(body: CreatePostInput, options?: RequestOptions): Promise<PostValidation> {
    return (
      await this.#send({
        method: "POST",
        path: "/posts/validate",
        json: body,
        schema: PostValidation,
        idempotent: false,
        options,
      })
    ).data;
  }

  async get(id: string, options?: RequestOptions): Promise<Post> {
    return (await this.#send({ method: "GET", path: path(id), schema: Post, options })).data;
  }

  /** One page, most recent first. Pass `nextCursor` back as `cursor` for the next one. */
  async list(params: ListPostsParams = {}, options?: RequestOptions): Promise<Page<Post>> {
    const { data, next } = await this.#page(listQuery(params), "/posts", options);
    return { data, nextCursor: cursorOf(next) };
  }

  /** Every post matching `params`, page after page, following the Link header's next page. */
  async *listAll(
    params: ListPostsParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<Post, void, undefined> {
    let page = await this.#page(listQuery(params), "/posts", options);
    const followed = new Set<string>();
    for (;;) {
      yield* page.data;
      if (page.next === null) return;
      // A next link seen before would loop forever: stop with an error rather than repeat pages.
      if (followed.has(page.next)) throw repeatedPage(page.next);
      followed.add(page.next);
      page = await this.#page(undefined, page.next, options);
    }
  }

  /**
   * Publishes a draft now, or schedules it with `schedule_at`; also retries a post that went back to
   * draft because every network failed. A post that is not a draft: ConflictError.
   */
  async publish(id: string, body: PublishDraftInput = {}, options?: RequestOptions): Promise<Post> {
    return (
      await this.#send({ method: "POST", path: `${path(id)}/publish`, json: body, schema: Post, options })
    ).data;
  }

  /**
   * Sends again the networks of the post that failed, once each, with the accounts' credentials as
   * they are now; the networks that published are left alone. No network failed, or the post is still
   * publishing: ConflictError. Safe to retry: it carries an Idempotency-Key.
   */
  async retry(id: string, options?: RequestOptions): Promise<Post> {
    return (await this.#send({ method: "POST", path: `${path(id)}/retry`, schema: Post, options })).data;
  }

  /**
   * Edits a draft or a scheduled post: any of `caption`, `captions`, `platforms`, `media` (null removes
   * it), `thread`, `split`, `first_comment`, `poll`, `options` (null removes each) and `schedule_at` (schedules a draft; null makes a scheduled post a draft again). The post as
   * edited is checked as a new one would be (BadRequestError, nothing changed); a post that is
   * publishing or published: ConflictError. Safe to retry: it carries an Idempotency-Key.
   */
  async update(id: string, body: UpdatePostInput, options?: RequestOptions): Promise<Post> {
    return (
      await this.#send({
        method: "PATCH",
        path: path(id),
        json: body,
        schema: Post,
        idempotent: true,
        options,
      })
    ).data;
  }

  /** Deletes a draft, cancels a scheduled post, or removes a published post's record. */
  async delete(id: string, options?: RequestOptions): Promise<DeleteResult> {
    return (await this.#send({ method: "DELETE", path: path(id), schema: DeleteResult, options })).data;
  }

  /** Each network's result for the post: status, adapted text, permalink, error, metrics. */
  async targets(id: string, options?: RequestOptions): Promise<{ data: Target[] }> {
    return (await this.#send({ method: "GET", path: `${path(id)}/targets`, schema: TargetList, options }))
      .data;
  }

  /**
   * The post's whole content as sent (extension): caption, captions, every media item as
   * {url, type, alt}, the thread's parts, first_comment, poll, options and split.
   */
  async content(id: string, options?: RequestOptions): Promise<PostContentView> {
    return (
      await this.#send({ method: "GET", path: `${path(id)}/content`, schema: PostContentView, options })
    ).data;
  }

  /**
   * Resolves with the post once its status is `status` (or one of several). Throws WaitForStatusError
   * after `timeoutMs`, or as soon as the post can no longer get there.
   */
  waitFor(id: string, status: PostStatus | readonly PostStatus[], options?: WaitForOptions): Promise<Post> {
    const wanted: readonly PostStatus[] = typeof status === "string" ? [status] : status;
    return waitForStatus(this, id, wanted, options);
  }

  async #page(
    query: Record<string, string | number | undefined> | undefined,
    at: string,
    options?: RequestOptions,
  ) {
    const response = await this.#send({ method: "GET", path: at, query, schema: PostList, options });
    return { data: response.data.data, next: nextPageUrl(response.headers, response.url) };
  }
}

function repeatedPage(url: string): SocialPublishError {
  const { pathname, search } = new URL(url);
  return new SocialPublishError("The service linked the same next page twice; stopping instead of looping.", {
    status: null,
    requestId: null,
    headers: new Headers(),
    body: null,
    method: "GET",
    path: pathname + search,
  });
}

function listQuery(params: ListPostsParams): Record<string, string | number | undefined> {
  const status =
    typeof params.status === "string" || params.status === undefined
      ? params.status
      : params.status.join(",");
  return { status, limit: params.limit, cursor: params.cursor };
}
