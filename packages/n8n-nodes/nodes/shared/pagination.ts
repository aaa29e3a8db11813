import type { IDataObject } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { type ApiCall, type ApiContext, apiError, sendRequest } from "./transport";

/** The service's largest page. */
export const MAX_PAGE_SIZE = 100;

/**
 * The `cursor` of the `rel="next"` link in an RFC 8288 Link header, or undefined on the last page.
 * Written here rather than imported because a verified community node may not have dependencies.
 */
export function nextCursor(linkHeader: string | undefined): string | undefined {
  if (!linkHeader) return undefined;
  for (const match of linkHeader.matchAll(/<([^>]*)>([^,]*)/g)) {
    const [, target, params] = match;
    if (!/;\s*rel\s*=\s*"?([^"]*\s)?next(\s[^"]*)?"?/i.test(params ?? "")) continue;
    try {
      return new URL(target ?? "", "http://placeholder.invalid").searchParams.get("cursor") ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
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
