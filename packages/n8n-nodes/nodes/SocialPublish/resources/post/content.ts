import type { IDataObject, IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { NETWORK_IDS, NETWORKS, RICH_LIMITS } from "../../../shared/contract.generated";
import { derivedIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import { mediaItem } from "./rich";

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

const altTextField: INodeProperties = {
  displayName: "Alt Text",
  name: "alt",
  type: "string",
  default: "",
  description: `What the image shows, for people who cannot see it (at most ${RICH_LIMITS.maxAltLength} characters); sent to the networks that take alt text`,
};

/** Several media, each a URL, a med_ id or a binary field, each with its alt text. */
export const mediaItemsField: INodeProperties = {
  displayName: "Media Items",
  name: "mediaItems",
  type: "fixedCollection",
  typeOptions: { multipleValues: true, sortable: true },
  placeholder: "Add Media",
  default: {},
  description: `Images or videos in the order they appear (at most ${RICH_LIMITS.maxMediaItems}), each with its alt text. Each network carries what it can: up to 4 images on X and Bluesky, a carousel on Instagram and Threads, an album on Telegram; the service refuses a post whose media a network cannot carry and names the limit.`,
  options: [
    {
      displayName: "Media",
      name: "item",
      values: [
        {
          displayName: "Source",
          name: "source",
          type: "options",
          options: [
            { name: "URL or ID", value: "url", description: "A publicly reachable URL, or a med_ ID" },
            {
              name: "Binary File",
              value: "binary",
              description: "A file from the input item, uploaded to the service first",
            },
          ],
          default: "url",
          description: "Where this image or video comes from",
        },
        {
          displayName: "URL or ID",
          name: "url",
          type: "string",
          default: "",
          placeholder: "https://example.com/image.png",
          description: "Address of the image or video, or the med_ ID of media uploaded with Media → Upload",
          displayOptions: { show: { source: ["url"] } },
        },
        {
          displayName: "Input Binary Field",
          name: "binaryPropertyName",
          type: "string",
          default: "data",
          description: "Name of the input item's binary field that holds the image or video",
          displayOptions: { show: { source: ["binary"] } },
        },
        altTextField,
      ],
    },
  ],
};

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
        {
          name: "Several, With Alt Text",
          value: "list",
          description: "Several images or videos (a carousel, an album), each with its alt text",
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
    {
      ...altTextField,
      name: "mediaAlt",
      displayOptions: { show: { [sourceName]: ["url", "binary"] } },
    },
    { ...mediaItemsField, displayOptions: { show: { [sourceName]: ["list"] } } },
  ];
}

/** Uploads the item's binary file through POST /media and answers the media resource. */
export async function uploadBinary(
  this: IExecuteFunctions,
  itemIndex: number,
  idempotencyKey: string,
  property = this.getNodeParameter("binaryPropertyName", itemIndex, "data") as string,
): Promise<IDataObject> {
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

/** A post's `media` as the request takes it: one URL or med_ id, or a list of items with alt text. */
export type PostMedia = string | Array<string | IDataObject>;

/**
 * The post's `media`: the URL or med_ id given, the id of the binary file once uploaded (under the
 * post's key followed by `-media`), the list of Media Items (binary files uploaded under `-media-1`,
 * `-media-2`… by their place in the list), or undefined for none. A single medium with alt text is
 * sent as a list of one, so the alt text goes with it.
 */
export async function readMedia(
  this: IExecuteFunctions,
  itemIndex: number,
  postKey: string,
  sourceName = "mediaSource",
): Promise<PostMedia | undefined> {
  const source = this.getNodeParameter(sourceName, itemIndex, "none") as string;
  if (source === "list") {
    return await readMediaItems.call(
      this,
      itemIndex,
      postKey,
      this.getNodeParameter("mediaItems", itemIndex, {}),
    );
  }
  if (source !== "url" && source !== "binary") return undefined;
  const alt = String(this.getNodeParameter("mediaAlt", itemIndex, "") ?? "").trim();
  checkAltLength.call(this, alt, "Alt Text", itemIndex);
  const ref =
    source === "url"
      ? (this.getNodeParameter("mediaUrl", itemIndex, "") as string).trim()
      : ((await uploadBinary.call(this, itemIndex, derivedIdempotencyKey(postKey, "media"))).id as string);
  return alt === "" ? ref : [mediaItem(ref, alt)];
}

function checkAltLength(this: IExecuteFunctions, alt: string, where: string, itemIndex: number): void {
  if (alt.length <= RICH_LIMITS.maxAltLength) return;
  throw new NodeOperationError(this.getNode(), `${where} is ${alt.length} characters long`, {
    description: `Alt text may be at most ${RICH_LIMITS.maxAltLength} characters.`,
    itemIndex,
  });
}

/**
 * Media Items as the request's media list, each binary file uploaded first; an empty list is an error
 * (choose None for a post without media), as is an entry without its URL.
 */
export async function readMediaItems(
  this: IExecuteFunctions,
  itemIndex: number,
  postKey: string,
  value: unknown,
): Promise<Array<string | IDataObject>> {
  const entries =
    (
      value as {
        item?: Array<{ source?: string; url?: unknown; binaryPropertyName?: unknown; alt?: unknown }>;
      }
    )?.item ?? [];
  const fail = (message: string, description: string): never => {
    throw new NodeOperationError(this.getNode(), message, { description, itemIndex });
  };
  if (entries.length === 0) fail("Media Items is empty", "Add an image or video, or set Media to None.");
  if (entries.length > RICH_LIMITS.maxMediaItems) {
    fail(`Media Items has ${entries.length} entries`, `A post takes at most ${RICH_LIMITS.maxMediaItems}.`);
  }
  const media: Array<string | IDataObject> = [];
  for (const [index, entry] of entries.entries()) {
    const where = `Media item ${index + 1}`;
    const alt = String(entry.alt ?? "").trim();
    checkAltLength.call(this, alt, `${where}'s alt text`, itemIndex);
    let ref: string;
    if (entry.source === "binary") {
      const property = String(entry.binaryPropertyName ?? "data").trim() || "data";
      const key = derivedIdempotencyKey(postKey, `media-${index + 1}`);
      ref = (await uploadBinary.call(this, itemIndex, key, property)).id as string;
    } else {
      ref = String(entry.url ?? "").trim();
      if (ref === "")
        fail(`${where} has no URL or ID`, "Give a publicly reachable URL or a med_ ID, or remove the item.");
    }
    media.push(mediaItem(ref, alt));
  }
  return media;
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
