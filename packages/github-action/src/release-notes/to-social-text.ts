import type { Definition, List, ListItem, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { lineBreaksAsSpaces } from "../linear-text.ts";
import { collapseBlankLines } from "./blank-lines.ts";
import { withoutGeneratedSections } from "./generated-sections.ts";
import { shortGitHubReference, textNamesGitHubUrl, unmention } from "./github-links.ts";

export interface SocialTextOptions {
  /** `owner/name` of the repository the notes belong to: its issue and commit links become `#123`. */
  repo?: string;
}

interface Context {
  repo: string | undefined;
  definitions: Map<string, Definition>;
}

/**
 * Release notes (GitHub-flavoured Markdown) as plain text that reads well in a social post:
 * headings and paragraphs as lines, list items behind "•" (or their number), links as their text
 * followed by the URL, GitHub issue/commit links as "#123"; emphasis and code marks dropped with their
 * text kept; code blocks, images, HTML, struck-through text and GitHub's generated "New Contributors"
 * and "Full Changelog" parts left out.
 */
export function releaseNotesToText(markdown: string, options: SocialTextOptions = {}): string {
  // Notes written in a browser on Windows or pasted from a CRLF file end their lines in "\r\n"; remark
  // keeps the "\r" inside text nodes, where it would reach the post.
  const lf = collapseBlankLines(markdown.replace(/\r\n?/g, "\n"));
  try {
    const tree = unified().use(remarkParse).use(remarkGfm).parse(lf) as Root;
    const context: Context = { repo: options.repo, definitions: collectDefinitions(tree) };
    const blocks = renderSequence(withoutGeneratedSections(tree.children), context);
    return joinBlocks(withoutEmptySections(blocks));
  } catch (error) {
    // Lists or quotes nested about a thousand deep overflow the call stack of the parser (and of any
    // recursive walk of its tree). No real notes nest like that: post them as the plain text they are
    // rather than fail the release's announcement.
    if (error instanceof RangeError) return tidy(lf);
    throw error;
  }
}

interface RenderedBlock {
  text: string;
  headingDepth: number | undefined;
}

/** Sibling blocks rendered, the empty ones dropped. */
function renderSequence(nodes: readonly RootContent[], context: Context): RenderedBlock[] {
  const out: RenderedBlock[] = [];
  nodes.forEach((node, i) => {
    let text = tidy(renderBlock(node, context));
    // "…as follows:" promised the code block that is left out; end the sentence instead.
    if (nodes[i + 1]?.type === "code") text = text.replace(/:$/, ".");
    if (text !== "") out.push({ text, headingDepth: node.type === "heading" ? node.depth : undefined });
  });
  return out;
}

/**
 * Drops headings left with nothing under them (their content was all code, images or HTML). Read from
 * the end, so a heading is judged by what is still under it once its empty subsections are gone: "# v2"
 * over a "## Install" that held only a code block goes too.
 */
function withoutEmptySections(blocks: RenderedBlock[]): RenderedBlock[] {
  // Collected back to front and reversed once: unshift would move every kept block each time.
  const kept: RenderedBlock[] = [];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    const next = kept[kept.length - 1];
    const hasContent =
      next !== undefined &&
      (next.headingDepth === undefined || next.headingDepth > (block.headingDepth ?? 0));
    if (block.headingDepth === undefined || hasContent) kept.push(block);
  }
  return kept.reverse();
}

/** A blank line between blocks, but a heading sits directly on top of what it introduces. */
function joinBlocks(blocks: RenderedBlock[]): string {
  let out = "";
  blocks.forEach((block, i) => {
    if (i > 0) out += blocks[i - 1]!.headingDepth === undefined ? "\n\n" : "\n";
    out += block.text;
  });
  return out;
}

function collectDefinitions(tree: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  const visit = (node: Nodes) => {
    if (node.type === "definition" && !definitions.has(node.identifier))
      definitions.set(node.identifier, node);
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return definitions;
}

function renderBlock(node: RootContent, context: Context): string {
  switch (node.type) {
    case "paragraph":
    case "heading":
      // Leading space would remain where an image or a tag started the paragraph.
      return renderInline(node.children, context)
        .split("\n")
        .map((line) => line.trim())
        .join("\n");
    case "list":
      return renderList(node, context);
    case "blockquote":
      return renderAlert(renderBlocks(node.children, context, "\n\n"));
    case "table":
      return node.children
        .map((row) =>
          row.children
            .map((cell) => renderInline(cell.children, context).trim())
            .filter((cell) => cell !== "")
            .join(" | "),
        )
        .filter((row) => row !== "")
        .join("\n");
    // Code blocks rarely read well in a post and the release link leads to them; images, raw HTML
    // (comments included), rules, definitions and footnotes have no place in plain text.
    default:
      return "";
  }
}

function renderBlocks(nodes: readonly RootContent[], context: Context, separator: string): string {
  return renderSequence(nodes, context)
    .map((block) => block.text)
    .join(separator);
}

function renderList(list: List, context: Context): string {
  const start = list.start ?? 1;
  return list.children
    .map((item, i) => renderListItem(item, list.ordered ? `${start + i}. ` : "• ", context))
    .filter((text) => text !== "")
    .join("\n");
}

const INDENT = "  ";

function renderListItem(item: ListItem, marker: string, context: Context): string {
  const body = renderBlocks(item.children, context, "\n");
  if (body === "") return "";
  const [first, ...rest] = body.split("\n");
  return [marker + first, ...rest.map((line) => INDENT + line)].join("\n");
}

const ALERT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*/i;

/** GitHub's alert blockquotes (`> [!NOTE]`) as a plain "Note:" lead. */
function renderAlert(text: string): string {
  return text.replace(
    ALERT,
    (_, kind: string) => `${kind[0]!.toUpperCase()}${kind.slice(1).toLowerCase()}: `,
  );
}

function renderInline(nodes: readonly PhrasingContent[], context: Context): string {
  return nodes.map((node) => renderPhrasing(node, context)).join("");
}

function renderPhrasing(node: PhrasingContent, context: Context): string {
  switch (node.type) {
    case "text":
      // A single line break inside a paragraph is a space (CommonMark's reading): release notes pasted
      // from a hard-wrapped CHANGELOG would otherwise break mid-sentence.
      return unmention(lineBreaksAsSpaces(node.value));
    case "emphasis":
    case "strong":
      return renderInline(node.children, context);
    case "delete":
      // Struck-through text is withdrawn; without the strike line it would read as the opposite.
      return "";
    case "inlineCode":
      return node.value;
    case "break":
      return "\n";
    case "link":
      return renderLink(renderInline(node.children, context), node.url, context);
    case "linkReference": {
      const label = renderInline(node.children, context);
      const definition = context.definitions.get(node.identifier);
      return definition ? renderLink(label, definition.url, context) : label;
    }
    default:
      // Images, inline HTML (tags and comments) and footnote references.
      return "";
  }
}

const ABSOLUTE_URL = /^https?:\/\//i;

function renderLink(label: string, url: string, context: Context): string {
  const text = label.trim();
  // A link around nothing but an image (a badge) disappears with its image.
  if (text === "") return "";
  // Anchors, relative paths and mailto: mean nothing outside the release page.
  if (!ABSOLUTE_URL.test(url)) return label;
  const withoutScheme = url.replace(ABSOLUTE_URL, "").replace(/\/$/, "");
  if (text === withoutScheme || text === withoutScheme.replace(/^www\./, "")) return label;
  const display = shortGitHubReference(url, context.repo) ?? url;
  if (text === url || text === url.replace(/\/$/, "")) return display;
  if (textNamesGitHubUrl(text, url)) return label;
  return `${label} (${display})`;
}

/** Trailing spaces off every line, runs of spaces inside a line collapsed, at most one blank line. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const indent = /^ */.exec(line)![0];
      return (
        indent +
        line
          .slice(indent.length)
          .replace(/[ \t]{2,}/g, " ")
          .trimEnd()
      );
    })
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+/, "")
    .trimEnd();
}
