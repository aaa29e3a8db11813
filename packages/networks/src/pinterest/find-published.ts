import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { asStored, type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type PinterestApiConfig, pinterestCall } from "./api.ts";
import { pinTitle, pinterestPermalink } from "./publish.ts";

/*
 * The pin a lost attempt may have made, read back from the board pins go to (GET
 * /v5/boards/{board_id}/pins, `boards:read` and `pins:read`, which the connect asks for): Pinterest
 * lists a board's pins newest first, paged with a bookmark, each with its description, title and
 * created_at. A pin is the attempt's when its description is exactly the text sent and its title the
 * first line the adapter made of it (publish.ts), made since the attempt could publish. A pin whose
 * board or title came from the post's options is looked for with those (`findPinOn`, from the publish's
 * own saved step).
 */

const READ_BACK = {
  network: "pinterest",
  name: "Pinterest",
  why: "the server could not read the board's pins back to see whether the pin was made; that needs the boards:read and pins:read scopes, and the board chosen at connect",
} as const;

/** Pins a page (Pinterest gives up to 250). */
const PAGE_SIZE = 100;
/**
 * Five pages, 500 pins: more than a board gets in the hour a post's retries take, short of a bulk
 * import; a board busier than that fails as outcome unknown rather than being read on.
 */
const MAX_PAGES = 5;

interface BoardPins {
  items?: { id?: unknown; title?: unknown; description?: unknown; created_at?: unknown }[];
  bookmark?: string | null;
}

export function findPin(
  api: PinterestApiConfig,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const board = String(account.credentials.board_id ?? "");
  const sent = { text: lost.text, title: pinTitle(lost.text), board, since: lost.since };
  return findPinOn(api, account, sent, signal);
}

/** What a pin was sent as: its description, its title, its board, and since when. */
export interface SentPin {
  text: string;
  title: string;
  board: string;
  since: number;
}

export async function findPinOn(
  api: PinterestApiConfig,
  account: AccountSession,
  sent: SentPin,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const token = String(account.credentials.access_token ?? "");
  const board = encodeURIComponent(sent.board);
  const title = asStored(sent.title);
  return readBackSince<string>({
    network: "pinterest",
    name: "Pinterest",
    text: asStored(sent.text),
    since: sent.since,
    maxPages: MAX_PAGES,
    async readPage(bookmark) {
      const query = new URLSearchParams({ page_size: String(PAGE_SIZE) });
      if (bookmark !== null) query.set("bookmark", bookmark);
      const path = `/boards/${board}/pins?${query}`;
      const answer = (await pinterestCall(api, token, "GET", path, undefined, signal, true).catch(
        (error: unknown) => {
          throw refusedReadBack(READ_BACK, error);
        },
      )) as BoardPins | null;
      if (!Array.isArray(answer?.items)) throw cannotReadBack(READ_BACK);
      const posts = answer.items.flatMap((pin): ListedPost[] => {
        if (typeof pin.id !== "string") return [];
        // A pin whose title is not the one made from this text is not the attempt's, whatever its description.
        const sameTitle = asStored(typeof pin.title === "string" ? pin.title : "") === title;
        return [
          {
            id: pin.id,
            text: sameTitle && typeof pin.description === "string" ? asStored(pin.description) : null,
            at: typeof pin.created_at === "string" ? Date.parse(pin.created_at) : Number.NaN,
            permalink: pinterestPermalink(pin.id),
          },
        ];
      });
      const next = typeof answer.bookmark === "string" && answer.bookmark !== "" ? answer.bookmark : null;
      return { posts, next };
    },
  });
}
