import type { z } from "zod";
import type { NetworkId } from "../../contract/networks.ts";
import type { ConnectAccountBody } from "../../contract/requests.ts";
import { Account, AccountList, DeleteResult } from "../../contract/resources.ts";
import type { Requester, RequestOptions } from "../requester.ts";
import { resourcePath } from "./resource-path.ts";

export type ConnectAccountInput = z.input<typeof ConnectAccountBody>;

export class AccountsResource {
  readonly #send: Requester;

  constructor(send: Requester) {
    this.#send = send;
  }

  /** The connected profiles, in the contract's network order: exactly the networks a post can target. */
  async list(options?: RequestOptions): Promise<{ data: Account[] }> {
    return (await this.#send({ method: "GET", path: "/accounts", schema: AccountList, options })).data;
  }

  /** Connects a network (in sandbox at once). Over the plan's profile limit: BadRequestError. */
  async connect(body: ConnectAccountInput, options?: RequestOptions): Promise<Account> {
    return (
      await this.#send({
        method: "POST",
        path: "/accounts/connect",
        json: body,
        schema: Account,
        options,
      })
    ).data;
  }

  async disconnect(platform: NetworkId, options?: RequestOptions): Promise<DeleteResult> {
    return (
      await this.#send({
        method: "DELETE",
        path: resourcePath("/accounts", platform),
        schema: DeleteResult,
        options,
      })
    ).data;
  }
}
