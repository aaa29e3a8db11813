import type { RootContent } from "mdast";
import { toString as textOf } from "mdast-util-to-string";

/*
 * GitHub's "Generate release notes" adds two parts that say nothing to a reader on a social network:
 * the "New Contributors" list (GitHub logins, which are not social handles) and the "Full Changelog"
 * compare link (the post already links the release, which links the changelog).
 */

const NEW_CONTRIBUTORS = /^new contributors$/i;
const FULL_CHANGELOG = /^full changelog\s*:/i;

/** The top-level blocks without GitHub's "New Contributors" section and "Full Changelog" line. */
export function withoutGeneratedSections(blocks: readonly RootContent[]): RootContent[] {
  const kept: RootContent[] = [];
  let skippingBelowDepth: number | undefined;
  for (const block of blocks) {
    if (block.type === "heading") {
      if (skippingBelowDepth !== undefined && block.depth > skippingBelowDepth) continue;
      skippingBelowDepth = NEW_CONTRIBUTORS.test(textOf(block).trim()) ? block.depth : undefined;
      if (skippingBelowDepth !== undefined) continue;
    } else if (skippingBelowDepth !== undefined) {
      continue;
    }
    if (block.type === "paragraph" && FULL_CHANGELOG.test(textOf(block).trim())) continue;
    kept.push(block);
  }
  return kept;
}
