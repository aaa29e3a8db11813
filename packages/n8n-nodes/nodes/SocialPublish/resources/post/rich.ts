import type { IDataObject, IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { NETWORKS, RICH_LIMITS } from "../../../shared/contract.generated";
import { NETWORK_OPTION_KINDS, NETWORK_OPTION_PROPERTIES } from "./network-options.generated";

// The fields of a rich post besides its text and media — thread parts, how a long text is handled,
// the first comment, a poll and each network's options — shared by Create, Validate, Schedule and
// Update, with the code that reads them into the request's `thread`, `split`, `first_comment`,
// `poll` and `options`.

const listed = (names: string[]) => new Intl.ListFormat("en", { type: "conjunction" }).format(names);
const networksWhere = (pick: (network: (typeof NETWORKS)[number]) => boolean) =>
  listed(NETWORKS.filter(pick).map((network) => network.name));

/** Where a thread's parts go out as replies, as messages, or joined into one text (from the contract). */
export const THREAD_RULE = `On ${networksWhere((n) => n.threads === "replies")} each part is a reply to the one before; on ${networksWhere((n) => n.threads === "messages")} the parts are consecutive messages; elsewhere their text is joined to the post's, a blank line between`;

export const threadField: INodeProperties = {
  displayName: "Thread",
  name: "thread",
  type: "fixedCollection",
  typeOptions: { multipleValues: true, sortable: true },
  placeholder: "Add Thread Part",
  default: {},
  description: `Further parts after the post itself, in order (at most ${RICH_LIMITS.maxThreadParts}). ${THREAD_RULE}.`,
  options: [
    {
      displayName: "Part",
      name: "part",
      values: [
        {
          displayName: "Caption",
          name: "caption",
          type: "string",
          typeOptions: { rows: 3 },
          default: "",
          description: "Text of this part, shortened to each network's limit like any text",
        },
        {
          displayName: "Media",
          name: "media",
          type: "string",
          typeOptions: { rows: 2 },
          default: "",
          placeholder: "https://example.com/image.png",
          description:
            "Images or videos of this part, one per line: each a publicly reachable URL or the med_ ID of media uploaded with Media → Upload",
        },
        {
          displayName: "Alt Text",
          name: "alt",
          type: "string",
          typeOptions: { rows: 2 },
          default: "",
          description:
            "Alt text of this part's media, one line per media item in the same order; leave a line empty for an item without",
        },
      ],
    },
  ],
};

export const splitField: INodeProperties = {
  displayName: "Long Text",
  name: "split",
  type: "options",
  options: [
    {
      name: "Shorten",
      value: "shorten",
      description: "Cut a text longer than a network's limit at a word boundary, with …",
    },
    {
      name: "Split Into a Thread",
      value: "thread",
      description: `Where a network threads (${networksWhere((n) => n.threads !== "joined")}), split a longer text into numbered parts at paragraphs, then sentences, then words`,
    },
  ],
  default: "shorten",
  description: "What happens to a text longer than a network's limit",
};

export const firstCommentField: INodeProperties = {
  displayName: "First Comment",
  name: "firstComment",
  type: "string",
  typeOptions: { rows: 2 },
  default: "",
  description: `A text the same account adds as the first comment (or reply) to the published post, for example a link. Carried by ${networksWhere((n) => n.firstComment)}; the other networks publish without it.`,
};

export const pollField: INodeProperties = {
  displayName: "Poll",
  name: "poll",
  type: "fixedCollection",
  placeholder: "Add Poll",
  default: {},
  description: `A poll, on ${networksWhere((n) => n.poll)}. A post with a poll to another network is refused.`,
  options: [
    {
      displayName: "Poll",
      name: "settings",
      values: [
        {
          displayName: "Choices",
          name: "choices",
          type: "string",
          typeOptions: { rows: 4 },
          default: "",
          placeholder: "Yes\nNo",
          description:
            "The 2 to 4 choices, one per line (or an array from an expression); each network has its own longest choice",
        },
        {
          displayName: "Duration (Minutes)",
          name: "durationMinutes",
          type: "number",
          typeOptions: { minValue: 1 },
          default: 1440,
          description: "How long the poll stays open; each network has its own shortest and longest",
        },
      ],
    },
  ],
};

/** Each network's options collection, shown when that network is picked (or given by an expression). */
export function networkOptionFields(showForPickedNetwork = true): INodeProperties[] {
  return NETWORK_OPTION_PROPERTIES.map((property) => {
    const network = property.name.replace(/Options$/, "");
    return showForPickedNetwork
      ? { ...property, displayOptions: { show: { networks: [network] } } }
      : property;
  });
}

/** The rich fields after the media and Text per Network, in the order shown. */
export function richPostFields(): INodeProperties[] {
  return [threadField, splitField, firstCommentField, pollField, ...networkOptionFields()];
}

type Fail = (message: string, description?: string) => never;

function failer(context: IExecuteFunctions, itemIndex: number): Fail {
  return (message, description) => {
    throw new NodeOperationError(context.getNode(), message, { description, itemIndex });
  };
}

/** A multi-line field (or an expression's array) as its non-empty entries, trimmed. */
function lines(value: unknown): string[] {
  const list = Array.isArray(value) ? value : String(value ?? "").split(/\r?\n/);
  return list.map((entry) => (typeof entry === "string" ? entry.trim() : String(entry ?? "").trim()));
}

/** A media reference with its alt text, as the contract's media item takes it. */
export function mediaItem(ref: string, alt: string): string | IDataObject {
  if (alt === "") return ref;
  return ref.startsWith("med_") ? { id: ref, alt } : { url: ref, alt };
}

function checkAlt(alt: string, where: string, fail: Fail): void {
  if (alt.length > RICH_LIMITS.maxAltLength) {
    fail(
      `${where} has alt text of ${alt.length} characters`,
      `Alt text may be at most ${RICH_LIMITS.maxAltLength} characters.`,
    );
  }
}

/** One thread part's media: lines of URLs or med_ ids with lines of alt text, or an expression's array. */
function partMedia(media: unknown, alt: unknown, where: string, fail: Fail): Array<string | IDataObject> {
  // An expression may give the contract's own items ({url|id, alt}); they are sent as they are.
  if (Array.isArray(media) && media.some((entry) => typeof entry === "object" && entry !== null)) {
    return media as Array<string | IDataObject>;
  }
  const refs = lines(media);
  const alts = Array.isArray(alt)
    ? lines(alt)
    : String(alt ?? "")
        .split(/\r?\n/)
        .map((line) => line.trim());
  const named = refs.filter((ref) => ref !== "");
  while (alts.length > 0 && alts[alts.length - 1] === "") alts.pop();
  if (alts.length > named.length) {
    fail(
      `${where} has ${alts.length} lines of alt text for ${named.length} media`,
      "Give one line of alt text per media line, in the same order, or leave Alt Text empty.",
    );
  }
  if (named.length > RICH_LIMITS.maxMediaItems) {
    fail(`${where} has ${named.length} media`, `A part takes at most ${RICH_LIMITS.maxMediaItems}.`);
  }
  return named.map((ref, index) => {
    const text = alts[index] ?? "";
    checkAlt(text, where, fail);
    return mediaItem(ref, text);
  });
}

/** Thread as the request's `thread` (a list of parts), or undefined when it has none. */
export function readThread(
  this: IExecuteFunctions,
  itemIndex: number,
  value?: unknown,
): IDataObject[] | undefined {
  const fail = failer(this, itemIndex);
  const thread = (value ?? this.getNodeParameter("thread", itemIndex, {})) as {
    part?: Array<{ caption?: unknown; media?: unknown; alt?: unknown }>;
  };
  const parts = thread.part ?? [];
  if (parts.length === 0) return undefined;
  if (parts.length > RICH_LIMITS.maxThreadParts) {
    fail(
      `Thread has ${parts.length} parts`,
      `A thread takes at most ${RICH_LIMITS.maxThreadParts} parts after the post itself.`,
    );
  }
  return parts.map((part, index) => {
    const where = `Thread part ${index + 1}`;
    const caption = typeof part.caption === "string" ? part.caption : String(part.caption ?? "");
    const media = partMedia(part.media, part.alt, where, fail);
    if (caption.trim() === "" && media.length === 0) {
      fail(`${where} is empty`, "Give each part a caption or media, or remove the part.");
    }
    const body: IDataObject = {};
    if (caption.trim() !== "") body.caption = caption;
    if (media.length > 0) body.media = media;
    return body;
  });
}

/** First Comment as the request's `first_comment`, or undefined when empty. */
export function readFirstComment(
  this: IExecuteFunctions,
  itemIndex: number,
  value?: unknown,
): string | undefined {
  const comment = String(value ?? this.getNodeParameter("firstComment", itemIndex, "")).trim();
  if (comment === "") return undefined;
  if (comment.length > RICH_LIMITS.maxFirstCommentLength) {
    failer(this, itemIndex)(
      `First Comment is ${comment.length} characters long`,
      `It may be at most ${RICH_LIMITS.maxFirstCommentLength}; each network's own limit applies after that.`,
    );
  }
  return comment;
}

/** Poll as the request's `poll`, or undefined when none was added. */
export function readPoll(this: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
  const fail = failer(this, itemIndex);
  const value = this.getNodeParameter("poll", itemIndex, {}) as {
    settings?: { choices?: unknown; durationMinutes?: unknown };
  };
  if (value.settings === undefined) return undefined;
  const options = lines(value.settings.choices).filter((choice) => choice !== "");
  if (options.length < 2 || options.length > 4) {
    fail(
      `Poll has ${options.length} choice${options.length === 1 ? "" : "s"}`,
      "Give 2 to 4 choices, one per line.",
    );
  }
  const minutes = Number(value.settings.durationMinutes ?? 1440);
  if (!Number.isInteger(minutes) || minutes < 1) {
    fail(
      `Poll Duration (Minutes) is ${JSON.stringify(value.settings.durationMinutes)}`,
      "Give a whole number of minutes, 1 or more.",
    );
  }
  return { options, duration_minutes: minutes };
}

/** Long Text as the request's `split`: sent only when it differs from the service's default. */
export function readSplit(this: IExecuteFunctions, itemIndex: number): string | undefined {
  const split = this.getNodeParameter("split", itemIndex, "shorten") as string;
  return split === "thread" ? split : undefined;
}

/** One network's options collection as the contract's `options.<network>`, or undefined when empty. */
function networkOptions(network: string, value: IDataObject, fail: Fail): IDataObject | undefined {
  const kinds = NETWORK_OPTION_KINDS[network] ?? {};
  const options: IDataObject = {};
  for (const [name, raw] of Object.entries(value)) {
    const kind = kinds[name];
    if (kind === undefined)
      fail(`${network} has no option ${name}`, `Its options are: ${Object.keys(kinds).join(", ")}.`);
    if (kind === "flag") options[name] = raw === true || raw === "true";
    else if (kind === "list") {
      const list = (Array.isArray(raw) ? raw : String(raw ?? "").split(",")).map((tag) => String(tag).trim());
      const kept = list.filter((tag) => tag !== "");
      if (kept.length > 0) options[name] = kept;
    } else {
      const text = String(raw ?? "").trim();
      if (text !== "") options[name] = text;
    }
  }
  return Object.keys(options).length > 0 ? options : undefined;
}

/** The networks' options collections as the request's `options`, or undefined when none is set. */
export function readNetworkOptions(this: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
  const fail = failer(this, itemIndex);
  const options: IDataObject = {};
  for (const network of Object.keys(NETWORK_OPTION_KINDS)) {
    const value = this.getNodeParameter(`${network}Options`, itemIndex, {}) as IDataObject;
    const set = networkOptions(network, value ?? {}, fail);
    if (set) options[network] = set;
  }
  return Object.keys(options).length > 0 ? options : undefined;
}

/** Adds the rich fields (thread, split, first comment, poll, options) that are set to `body`. */
export function readRichFields(this: IExecuteFunctions, itemIndex: number, body: IDataObject): void {
  const thread = readThread.call(this, itemIndex);
  if (thread) body.thread = thread;
  const split = readSplit.call(this, itemIndex);
  if (split) body.split = split;
  const firstComment = readFirstComment.call(this, itemIndex);
  if (firstComment !== undefined) body.first_comment = firstComment;
  const poll = readPoll.call(this, itemIndex);
  if (poll) body.poll = poll;
  const options = readNetworkOptions.call(this, itemIndex);
  if (options) body.options = options;
}
