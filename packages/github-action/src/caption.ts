import { adaptText, measure, NETWORK_RULES, type NetworkId, textLimitFor, truncate } from "@socialpub/core";
import { leadingLines } from "./clean-cut.ts";
import { renderTemplate, type TemplatePart, type TemplateValues } from "./template.ts";

export interface CaptionInput {
  template: readonly TemplatePart[];
  /** Every variable but `body`. */
  values: Omit<TemplateValues, "body">;
  /** The release notes as social text. */
  notes: string;
  /** The networks the post goes to (at least one); their text limits decide how much of the notes fits. */
  platforms: readonly NetworkId[];
  hasMedia: boolean;
  /**
   * How many parts the text may span (`long-notes: thread`): the service splits it into a thread of at
   * most this many parts on each network. 1 (the default): one post.
   */
  parts?: number;
}

export interface Caption {
  text: string;
  /** True when the notes were shortened to fit. */
  notesShortened: boolean;
  /** One line per network that will cut more than release notes: the template alone is too long for it. */
  warnings: string[];
}

/** A stand-in for the notes while finding out what the template puts around them. */
const PLACEHOLDER = "\u0000notes\u0000";

/**
 * The caption for a post to `platforms`: the template filled in, with the notes shortened where needed
 * so that what the template puts around them (the title, the release URL) survives on every network.
 *
 * Each network shows the caption cut to its own limit (the service adapts it by the rule `adaptText`
 * implements). When the notes come last and the part before them survives that cut everywhere, every
 * network keeps as much of the notes as it can hold, and the caption is only capped at the longest
 * limit in play. Otherwise the notes are shortened until the whole caption fits the shortest limit in
 * play.
 */
export function composeCaption(input: CaptionInput): Caption {
  const { platforms, hasMedia } = input;
  const parts = input.parts ?? 1;
  if (platforms.length === 0) throw new Error("composeCaption needs at least one network.");
  const render = (body: string) => renderTemplate(input.template, { ...input.values, body });
  const fitsAll = (text: string, networks: readonly NetworkId[]) =>
    networks.every((id) => fits(text, id, hasMedia, parts));

  const full = render(input.notes);
  const [before = "", after = ""] = render(PLACEHOLDER).split(PLACEHOLDER);
  const head = before.trimEnd();
  const onlyNotesCut = (text: string, id: NetworkId) =>
    after.trim() === "" && adaptText(text, id, hasMedia).startsWith(head);

  const everyNetworkKeepsHead = platforms.every(
    (id) => fits(full, id, hasMedia, parts) || onlyNotesCut(full, id),
  );
  const mustFit = everyNetworkKeepsHead ? [longestLimit(platforms, hasMedia)] : platforms;
  const text = fitsAll(full, mustFit) ? full : shortenNotes(input.notes, render, (t) => fitsAll(t, mustFit));

  const withoutNotes = render("");
  const warnings = platforms
    .filter((id) => !fits(text, id, hasMedia, parts) && !onlyNotesCut(text, id))
    .map((id) => {
      const rule = NETWORK_RULES[id];
      return (
        `${rule.name} shows at most ${textLimitFor(id, hasMedia)} characters, and the template without release notes ` +
        `is already ${measure(withoutNotes, rule.lengthUnit)}: ${rule.name} cuts the end of the post. Shorten the \`template\`.`
      );
    });
  return { text, notesShortened: text !== full, warnings };
}

/**
 * Whether `text` fits a network's limit, measured the way that network counts; over `parts` parts of a
 * thread, each part's limit less its " 12/25" numbering, with a fifth kept back for the cuts at
 * paragraph, sentence and word boundaries that leave each part short of full.
 */
export function fits(text: string, id: NetworkId, hasMedia: boolean, parts = 1): boolean {
  const limit = textLimitFor(id, hasMedia);
  const budget = parts === 1 ? limit : Math.floor((limit - 7) * parts * 0.8);
  return measure(text, NETWORK_RULES[id].lengthUnit) <= budget;
}

/**
 * The caption with as much of the notes as `ok` allows: whole lines while at least one line fits
 * (then "…" on a line of its own), never ending on a heading cut off from what it introduces; else the
 * first words of the notes, without a list marker, separator or half a URL before the "…". No notes at all
 * when not even a few words fit.
 */
function shortenNotes(
  notes: string,
  render: (body: string) => string,
  ok: (text: string) => boolean,
): string {
  const lines = notes.split("\n");
  const keptText = (count: number) => leadingLines(lines, count).join("\n").trimEnd();
  const withLines = (count: number) => {
    const kept = keptText(count);
    return render(kept === "" ? "" : `${kept}\n…`);
  };
  const lineCount = largest(lines.length - 1, (count) => ok(withLines(count)));
  if (keptText(lineCount) !== "") return withLines(lineCount);

  const withChars = (budget: number) =>
    render(budget < FEWEST_WORTH_KEEPING ? "" : truncate(notes, budget, "characters"));
  return withChars(largest(measure(notes, "characters"), (budget) => ok(withChars(budget))));
}

/** Fewer characters of notes than this read as noise: the post goes without notes instead. */
const FEWEST_WORTH_KEEPING = 20;

/** The largest n in [0, max] with ok(n), given that ok holds up to some n and fails beyond it. */
function largest(max: number, ok: (n: number) => boolean): number {
  let low = 0;
  let high = Math.max(0, max);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (ok(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

function longestLimit(platforms: readonly NetworkId[], hasMedia: boolean): NetworkId {
  return platforms.reduce((a, b) => (textLimitFor(b, hasMedia) > textLimitFor(a, hasMedia) ? b : a));
}
