import { NETWORK_IDS, NETWORK_RULES, type NetworkId } from "./networks.ts";

/*
 * The "What each network carries" table of docs/networks.md, made from the networks' rules, so the page
 * says what the service enforces. `node packages/core/scripts/carries-table.ts` prints it; a test checks
 * the page holds it as printed.
 */

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function mediaCell(id: NetworkId): string {
  const m = NETWORK_RULES[id].carries.media;
  if (m.maxImages === 0) return count(m.maxVideos, "video");
  const several = m.minItemsWhenSeveral > 2 ? ` (${m.minItemsWhenSeveral}–${m.maxItems} when several)` : "";
  if (m.mixed) return `up to ${m.maxItems} images and videos${several}`;
  return `up to ${count(m.maxImages, "image")}${several}, or ${count(m.maxVideos, "video")}`;
}

function pollCell(id: NetworkId): string {
  const poll = NETWORK_RULES[id].carries.poll;
  if (poll === null) return "no";
  const minutes =
    poll.minMinutes === poll.maxMinutes
      ? `always runs ${poll.minMinutes} min`
      : `${poll.minMinutes}–${poll.maxMinutes.toLocaleString("en-US")} min${poll.outside === "noted" ? " (longer: stays open)" : ""}`;
  return `2–${poll.maxOptions} options of ≤ ${poll.optionMaxLength} chars, ${minutes}${poll.withMedia ? "" : ", no media"}`;
}

const THREADS = { replies: "as replies", messages: "as messages", joined: "joined into one post" } as const;

export function carriesTable(): string {
  const rows = [
    ["Network", "Media", "Alt text", "Thread parts", "First comment", "Poll"],
    ...NETWORK_IDS.map((id) => {
      const c = NETWORK_RULES[id].carries;
      return [
        NETWORK_RULES[id].name,
        mediaCell(id),
        c.alt ? "yes" : "no",
        THREADS[c.threads],
        c.firstComment ? "yes" : "no",
        pollCell(id),
      ];
    }),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [
    line(rows[0]!),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...rows.slice(1).map(line),
  ].join("\n");
}
