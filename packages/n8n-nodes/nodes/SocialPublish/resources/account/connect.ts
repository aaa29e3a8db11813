import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NETWORKS } from "../../../shared/contract.generated";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import {
  CONNECT_FIELD_PROPERTIES,
  CONNECT_FIELDS,
  CREDENTIAL_NETWORK_NAMES,
  NUMERIC_ID_FIELDS,
  OAUTH_NETWORK_NAMES,
} from "./connect-fields.generated";

/**
 * Connects a sandbox account at once (test keys). With a live key, Bluesky, Telegram and Discord connect
 * at once with the credentials given here (the network checks them before the service answers), and
 * a network that connects through its own page (OAuth: X, LinkedIn, …) is not connected yet: the
 * service answers where to send the person (`authorize_url`, valid until `expires_at`), and connects
 * the account when the network sends them back. The output is the service's answer as it is, so a
 * workflow can mail or post the link on; it never holds the credentials sent.
 */

export { CONNECT_FIELDS };

export const connectAccount: Operation = {
  properties: [
    {
      displayName: "Network",
      name: "platform",
      type: "options",
      options: NETWORKS.map((network) => ({ name: network.name, value: network.id })),
      default: "x",
      required: true,
      description: `Network to connect. With a live key, ${CREDENTIAL_NETWORK_NAMES} connect at once with the credentials below; a network that connects through its own page (${OAUTH_NETWORK_NAMES}) outputs the address to open to grant access.`,
    },
    {
      displayName: "Handle",
      name: "handle",
      type: "string",
      default: "",
      placeholder: "@studio",
      description:
        "Test key: the sandbox account's name to show (leave empty for the service's default). Live key, Bluesky: the account's handle or e-mail. Not used by other live networks.",
    },
    ...CONNECT_FIELD_PROPERTIES,
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const platform = this.getNodeParameter("platform", itemIndex) as string;
    const body: IDataObject = { platform };
    const handle = (this.getNodeParameter("handle", itemIndex, "") as string).trim();
    if (handle !== "") body.handle = handle;
    // Credentials, and where the account publishes, for the networks that take them at connect.
    for (const field of CONNECT_FIELDS[platform] ?? []) {
      const value = String(this.getNodeParameter(field, itemIndex, "")).trim();
      if (value === "") continue;
      // A Telegram chat is @name or a numeric id, which the service takes as a number.
      body[field] = NUMERIC_ID_FIELDS.includes(field) && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
    }
    return await apiRequest.call(this, {
      method: "POST",
      path: "/accounts/connect",
      body,
      idempotencyKey: defaultIdempotencyKey.call(this, itemIndex, "account.connect"),
      itemIndex,
    });
  },
};
