import type { z } from "zod";
import type { CreateKeyBody } from "../../contract/requests.ts";
import { type ApiKey, ApiKeyList, CreatedApiKey, DeleteResult } from "../../contract/resources.ts";
import type { Requester, RequestOptions } from "../requester.ts";
import { resourcePath } from "./resource-path.ts";

export type CreateKeyInput = z.input<typeof CreateKeyBody>;

/** The account's API keys (extension endpoints GET/POST /keys, DELETE /keys/{id}). */
export class KeysResource {
  readonly #send: Requester;

  constructor(send: Requester) {
    this.#send = send;
  }

  /** The keys the client's key manages (a test key: test keys only), each with a hint, never the key. */
  async list(options?: RequestOptions): Promise<{ data: ApiKey[] }> {
    return (await this.#send({ method: "GET", path: "/keys", schema: ApiKeyList, options })).data;
  }

  /**
   * Makes a key; the answer's `key` is the only time it is shown. Not retried unless `maxRetries` says
   * so: the service keeps no answer to replay (it keeps the key's hash only), so a retry after a lost
   * answer would make a second key. A key made by a call whose answer was lost is in `list()`: revoke it.
   */
  async create(body: CreateKeyInput, options?: RequestOptions): Promise<CreatedApiKey> {
    return (
      await this.#send({
        method: "POST",
        path: "/keys",
        json: body,
        schema: CreatedApiKey,
        idempotent: false,
        options: { maxRetries: 0, ...options },
      })
    ).data;
  }

  /** Revokes a key, the client's own included (its next call then fails with 401). */
  async revoke(id: string, options?: RequestOptions): Promise<DeleteResult> {
    return (
      await this.#send({ method: "DELETE", path: resourcePath("/keys", id), schema: DeleteResult, options })
    ).data;
  }
}
