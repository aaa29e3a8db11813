import type { IDataObject, IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { NETWORK_IDS, NETWORKS } from "../../../shared/contract.generated";
import { derivedIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";

// The fields that say what a post contains — its text, its text per network, its media — shared by
// Create, Schedule and Update, with the code that reads them into a request body.

export const captionField: INodeProperties = {
  displayName: "Caption",
  name: "caption",
  type: "string",
  typeOptions: { rows: 4 },
  default: "",
  description:
    "Text of the post. Each network gets a version shortened to its own limit (280 characters on X, for example). May be empty when the post has media.",
};

export const networksField: INodeProperties = {
  displayName: "Network Names or IDs",
  name: "networks",
  type: "multiOptions",
  typeOptions: { loadOptionsMethod: "getConnectedNetworks" },
  default: [],
  required: true,
  description:
    'Networks to publish to, from your connected accounts, as network IDs (x, linkedin, bluesky, …). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const captionsField: INodeProperties = {
  displayName: "Text per Network",
  name: "captions",
  type: "fixedCollection",
  typeOptions: { multipleValues: true },
  placeholder: "Add Text for a Network",
  default: {},
  description:
    "A different text for some networks, used instead of Caption on that network (and shortened to its limit like any text). Networks without one get Caption.",
  options: [
    {
      displayName: "Text",
      name: "text",
      values: [
        {
          displayName: "Network",
          name: "network",
          type: "options",
          options: NETWORKS.map((network) => ({ name: network.name, value: network.id })),
          default: "x",
          description: "Network that gets this text",
        },
        {
          displayName: "Text",
          name: "text",
          type: "string",
          typeOptions: { rows: 2 },
          default: "",
          description: "Text of the post on this network. Leave empty to use Caption there.",
        },
      ],
    },
  ],
};

const names = (pick: (network: (typeof NETWORKS)[number]) => boolean) =>
  new Intl.ListFormat("en", { type: "conjunction" }).format(NETWORKS.filter(pick).map((n) => n.name));

/** The contract's media rules in words, from the generated network table (so they cannot drift). */
export const MEDIA_RULES = `Image or video to attach. ${names((n) => n.needsMedia)} need media, and ${names((n) => n.needsVideo)} needs a video; the other networks take text alone.`;

/** The Media source selector and the fields of each source, for the parameter names given. */
export function mediaFields(sourceName = "mediaSource"): INodeProperties[] {
  return [
    {
      displayName: "Media",
      name: sourceName,
      type: "options",
      options: [
        { name: "None", value: "none", description: "A text-only post" },
        { name: "URL", value: "url", description: "A publicly reachable image or video" },
        {
          name: "Binary File",
          value: "binary",
          description: "A file from the input item, uploaded to the service first",
        },
      ],
      default: "none",
      description: MEDIA_RULES,
    },
    {
      displayName: "Media URL",
      name: "mediaUrl",
      type: "string",
      default: "",
      required: true,
      placeholder: "https://example.com/image.png",
      description: "Address of the image or video, or the med_ ID of media uploaded with Media → Upload",
      displayOptions: { show: { [sourceName]: ["url"] } },
    },
    {
      displayName: "Input Binary Field",
      name: "binaryPropertyName",
      type: "string",
      default: "data",
      required: true,
      hint: "The name of the input binary field containing the file to be uploaded",
      description: "Name of the input item's binary field that holds the image or video",
      displayOptions: { show: { [sourceName]: ["binary"] } },
    },
  ];
}

/** Uploads the item's binary file through POST /media and answers the media resource. */
export async function uploadBinary(
  this: IExecuteFunctions,
  itemIndex: number,
  idempotencyKey: string,
): Promise<IDataObject> {
  const property = this.getNodeParameter("binaryPropertyName", itemIndex, "data") as string;
  const binary = this.helpers.assertBinaryData(itemIndex, property);
  const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, property);
  return await apiRequest.call(this, {
    method: "POST",
    path: "/media",
    body: bytes,
    contentType: binary.mimeType,
    idempotencyKey,
    itemIndex,
  });
}

/**
 * The post's `media`: the URL or med_ id given, the id of the binary file once uploaded (under the
 * post's key followed by `-media`), or undefined for none.
 */
export async function readMedia(
  this: IExecuteFunctions,
  itemIndex: number,
  postKey: string,
  sourceName = "mediaSource",
): Promise<string | undefined> {
  const source = this.getNodeParameter(sourceName, itemIndex, "none") as string;
  if (source === "url") return (this.getNodeParameter("mediaUrl", itemIndex, "") as string).trim();
  if (source !== "binary") return undefined;
  const media = await uploadBinary.call(this, itemIndex, derivedIdempotencyKey(postKey, "media"));
  return media.id as string;
}

/**
 * Text per Network as the service's `captions` object (network id → text), or undefined when no
 * network has a text of its own. Entries left empty fall back to Caption; a network named twice is an
 * error, since only one of its texts could be used.
 */
export function readCaptions(this: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
  const value = this.getNodeParameter("captions", itemIndex, {}) as {
    text?: Array<{ network?: unknown; text?: unknown }>;
  };
  const captions: IDataObject = {};
  for (const entry of value.text ?? []) {
    const network = String(entry.network ?? "").trim();
    const text = typeof entry.text === "string" ? entry.text : String(entry.text ?? "");
    if (text.trim() === "") continue;
    if (!(NETWORK_IDS as readonly string[]).includes(network)) {
      throw new NodeOperationError(this.getNode(), `Text per Network names "${network}", not a network`, {
        description: `Use one of: ${NETWORK_IDS.join(", ")}.`,
        itemIndex,
      });
    }
    if (network in captions) {
      throw new NodeOperationError(this.getNode(), `Text per Network has two texts for ${network}`, {
        description: "Keep one text per network.",
        itemIndex,
      });
    }
    captions[network] = text;
  }
  return Object.keys(captions).length > 0 ? captions : undefined;
}
