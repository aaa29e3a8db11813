import { NetworkError } from "@socialpub/core";
import { type PinterestApiConfig, pinterestCall } from "./api.ts";

/*
 * The board pins go to, chosen when the account connects: the `board` field of the connect (a board id,
 * or its name in any case), or else the account's first board as Pinterest lists them. Boards are read
 * a page of 100 at a time, at most 10 pages: an account with more boards names its board by id.
 */

export interface PinterestBoard {
  id: string;
  name: string;
}

const PAGE_SIZE = 100;
const MAX_PAGES = 10;

interface BoardsPage {
  items?: { id?: unknown; name?: unknown }[];
  bookmark?: string | null;
}

export async function chooseBoard(
  api: PinterestApiConfig,
  token: string,
  wanted: string | undefined,
  signal: AbortSignal,
): Promise<PinterestBoard> {
  const want = wanted?.trim().toLowerCase();
  const seen: PinterestBoard[] = [];
  let bookmark: string | null | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ page_size: String(PAGE_SIZE), ...(bookmark && { bookmark }) });
    const answer = (await pinterestCall(
      api,
      token,
      "GET",
      `/boards?${query}`,
      undefined,
      signal,
      true,
    )) as BoardsPage | null;
    for (const item of answer?.items ?? []) {
      if (typeof item.id !== "string" || typeof item.name !== "string") continue;
      const board = { id: item.id, name: item.name };
      if (want === undefined || board.id === want || board.name.toLowerCase() === want) return board;
      seen.push(board);
    }
    bookmark = answer?.bookmark;
    if (!bookmark) break;
  }
  if (want === undefined) {
    throw new NetworkError(
      "pinterest",
      "refused",
      "This Pinterest account has no board to pin to; create a board on Pinterest, then connect again.",
    );
  }
  const names = seen.slice(0, 20).map((b) => `"${b.name}"`);
  throw new NetworkError(
    "pinterest",
    "refused",
    `This Pinterest account has no board "${wanted}"${names.length > 0 ? `; its boards include ${names.join(", ")}` : ""}. Connect again with one of them as board (its name or id).`,
  );
}
