import { NETWORK_RULES, type NetworkId, textLimitFor } from "../contract/networks.ts";
import { MAX_THREAD_PARTS } from "../contract/rich.ts";
import type { MediaRef, PostRecord } from "../store/types.ts";
import { adaptText } from "../text/adapt.ts";
import { measure } from "../text/measure.ts";
import { postMedia, textOf } from "./content.ts";
import { splitTextWithin } from "./split.ts";

/** One message a network gets: its text as adapted, and its media. */
export interface PlannedPart {
  text: string;
  media: MediaRef[];
}

/**
 * The messages `platform` gets for `post` (decisions.md "Rich posts"), with notes in words on what was
 * adapted or not carried:
 * - a network that threads (`carries.threads` "replies" or "messages") gets the post, then each thread
 *   part, each text adapted to its limit — or, with `split: "thread"`, split into numbered parts
 *   instead of shortened;
 * - elsewhere ("joined") the parts' text is joined to the post's with a blank line between, adapted as
 *   any text; the later parts' media is not carried.
 * Media beyond what the network takes was refused when the post was made (media-rules.ts); alt text a
 * network has no place for is noted.
 */
export function planParts(post: PostRecord, platform: NetworkId): { parts: PlannedPart[]; notes: string[] } {
  const rule = NETWORK_RULES[platform];
  const notes: string[] = [];
  const own = post.captions?.[platform];
  if (own !== undefined) notes.push(`text from captions.${platform} instead of caption`);
  const first = { text: textOf(post, platform), media: postMedia(post) };
  const thread = (post.rich?.thread ?? []).map((part) => ({
    text: textOf(part, platform),
    media: part.media ?? [],
  }));
  const split = post.rich?.split === "thread" && rule.carries.threads !== "joined";

  let given: PlannedPart[];
  if (thread.length === 0) {
    given = [first];
  } else if (rule.carries.threads === "joined") {
    given = [
      {
        text: [first, ...thread]
          .map((p) => p.text.trim())
          .filter((t) => t !== "")
          .join("\n\n"),
        media: first.media,
      },
    ];
    notes.push(`the thread's ${thread.length + 1} parts joined into one post: ${rule.name} takes no threads`);
    const dropped = thread.flatMap((p, i) => (p.media.length > 0 ? [i + 2] : []));
    if (dropped.length > 0) {
      notes.push(`media of ${partList(dropped)} not carried: ${rule.name} takes no threads`);
    }
  } else {
    given = [first, ...thread];
  }

  const parts: PlannedPart[] = [];
  for (const [i, part] of given.entries()) {
    const hasMedia = part.media.length > 0;
    const limit = textLimitFor(platform, hasMedia);
    const where = given.length > 1 ? `part ${i + 1}: ` : "";
    if (split && measure(part.text, rule.lengthUnit) > limit) {
      // A thread has at most MAX_PARTS parts: the parts still to come keep their places.
      const room = MAX_PARTS - parts.length - (given.length - i - 1);
      const { parts: pieces, shortened: cut } = splitTextWithin(part.text, limit, rule.lengthUnit, room);
      for (const [j, text] of pieces.entries()) parts.push({ text, media: j === 0 ? part.media : [] });
      notes.push(
        `${where}text split into ${pieces.length} parts to fit the ${rule.name} limit of ${limit.toLocaleString("en-US")}${withMedia(platform, hasMedia)}`,
      );
      if (cut) notes.push(`${where}text shortened so the thread keeps to ${MAX_PARTS} parts`);
      continue;
    }
    const text = adaptText(part.text, platform, hasMedia);
    if (text !== part.text) notes.push(`${where}${shortened(platform, part.text, text, hasMedia)}`);
    if (text.trim() === "" && hasMedia) notes.push(`${where}no text: the media is posted alone`);
    parts.push({ text, media: part.media });
  }
  if (
    rule.carries.threads === "joined" &&
    post.rich?.split === "thread" &&
    parts[0]!.text !== given[0]!.text
  ) {
    notes.push(`split: "thread" does not apply: ${rule.name} takes no threads, so the text was shortened`);
  }
  if (!rule.carries.alt && parts.some((p) => p.media.some((m) => m.alt !== undefined))) {
    notes.push(`alt text not carried: ${rule.name} takes none`);
  }
  return { parts, notes };
}

/** The most parts a thread has: the post and its further parts (decisions.md "Rich posts"). */
const MAX_PARTS = 1 + MAX_THREAD_PARTS;

function shortened(platform: NetworkId, original: string, text: string, hasMedia: boolean): string {
  const rule = NETWORK_RULES[platform];
  const limit = textLimitFor(platform, hasMedia).toLocaleString("en-US");
  const counted = rule.lengthUnit === "weighted" ? ` as ${rule.name} counts them` : "";
  return `text shortened from ${measure(original, rule.lengthUnit)} to ${measure(text, rule.lengthUnit)} characters${counted}, to fit the ${rule.name} limit of ${limit}${withMedia(platform, hasMedia)}`;
}

const withMedia = (platform: NetworkId, hasMedia: boolean) =>
  hasMedia && NETWORK_RULES[platform].textLimitWithMedia !== undefined ? " with media" : "";

const partList = (numbers: readonly number[]) =>
  `${numbers.length === 1 ? "part" : "parts"} ${new Intl.ListFormat("en", { type: "conjunction" }).format(numbers.map(String))}`;
