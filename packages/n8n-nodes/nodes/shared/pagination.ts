import type { IDataObject } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { type ApiCall, type ApiContext, apiError, sendRequest } from "./transport";

/** The service's largest page. */
export const MAX_PAGE_SIZE = 100;

/**
 * The `cursor` of the `rel="next"` link in an RFC 8288 Link header, or undefined on the last page.
 * Written here rather than imported because a verified community node may not have dependencies. One
 * pass with indexOf: a regular expression for "<target>; params" retries from every "<" of a header
 * that never closes one, which is quadratic in the header.
 */
export function nextCursor(linkHeader: string | undefined): string | undefined {
  if (!linkHeader) return undefined;
  let from = 0;
  for (;;) {
    const open = linkHeader.indexOf("<", from);
    const close = open < 0 ? -1 : linkHeader.indexOf(">", open + 1);
    if (close < 0) return undefined;
    const comma = linkHeader.indexOf(",", close + 1);
    const end = comma < 0 ? linkHeader.length : comma;
    if (isNextLink(linkHeader.slice(close + 1, end))) return cursorOf(linkHeader.slice(open + 1, close));
    from = end;
  }
}

/** Whether a link's parameters (`; rel="prefetch next"; …`) name the `next` relation. */
function isNextLink(params: string): boolean {
  for (const param of params.split(";")) {
    const equals = param.indexOf("=");
    if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== "rel") continue;
    const value = param.slice(equals + 1).trim();
    const unquoted = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
    if (unquoted.toLowerCase().split(/\s/).includes("next")) return true;
  }
  return false;
}

function cursorOf(target: string): string | undefined {
  try {
    return new URL(target, "http://placeholder.invalid").searchParams.get("cursor") ?? undefined;
  } catch {
    return undefined;
  }
}

export interface PageOptions {
  returnAll: boolean;
  /** Used when returnAll is false. */
  limit: number;
}

/** Follows the Link header through `{data: [...]}` pages until `limit` results or the last page. */
export async function getPaged(
  this: ApiContext,
  call: ApiCall,
  options: PageOptions,
): Promise<IDataObject[]> {
  const results: IDataObject[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const wanted = options.returnAll
      ? MAX_PAGE_SIZE
      : Math.min(MAX_PAGE_SIZE, options.limit - results.length);
    const qs: IDataObject = { ...call.qs, limit: wanted };
    if (cursor) qs.cursor = cursor;
    const response = await sendRequest.call(this, { ...call, qs });
    if (response.status !== 200) throw apiError.call(this, response, call.itemIndex);
    const page = (response.body as { data?: IDataObject[] } | undefined)?.data ?? [];
    results.push(...page);
    cursor = nextCursor(response.headers.link);
    if (!cursor || (!options.returnAll && results.length >= options.limit)) break;
    if (seen.has(cursor)) {
      throw new NodeOperationError(this.getNode(), "The service returned the same page cursor twice", {
        description: `Stopped paging ${call.path} to avoid an endless loop.`,
        itemIndex: call.itemIndex,
      });
    }
    seen.add(cursor);
  }
  return options.returnAll ? results : results.slice(0, options.limit);
}
