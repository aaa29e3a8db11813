/*
 * The `template` input: text with {variables}. `{{` and `}}` stand for literal braces. A template is
 * checked once, before anything is posted, so a typo in a variable name fails the step with a message
 * instead of posting "{nmae}" to every network.
 */

export const TEMPLATE_VARIABLES = [
  "repo",
  "owner",
  "repo_name",
  "tag",
  "name",
  "version",
  "url",
  "body",
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Record<TemplateVariable, string>;

export const DEFAULT_TEMPLATE = "{repo} {name}\n{url}\n\n{body}";

export type TemplatePart = { kind: "text"; text: string } | { kind: "variable"; name: TemplateVariable };

export class TemplateError extends Error {
  override name = "TemplateError";
}

const TOKEN = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

function isVariable(name: string): name is TemplateVariable {
  return (TEMPLATE_VARIABLES as readonly string[]).includes(name);
}

/** Splits a template into text and variables; throws a TemplateError naming any unknown variable. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = "";
  let last = 0;
  for (const match of template.matchAll(TOKEN)) {
    text += template.slice(last, match.index);
    last = match.index + match[0].length;
    const name = match[1];
    if (name === undefined) {
      text += match[0][0];
      continue;
    }
    if (!isVariable(name)) {
      const known = TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(", ");
      throw new TemplateError(
        `The \`template\` input uses {${name}}, which is not a variable. Use ${known}.`,
      );
    }
    if (text !== "") parts.push({ kind: "text", text });
    text = "";
    parts.push({ kind: "variable", name });
  }
  text += template.slice(last);
  if (text !== "") parts.push({ kind: "text", text });
  return parts;
}

/** Whether the template shows `name` at all. */
export function usesVariable(parts: readonly TemplatePart[], name: TemplateVariable): boolean {
  return parts.some((part) => part.kind === "variable" && part.name === name);
}

/**
 * The template filled in. An empty variable alone on its line removes that line; lines are right-trimmed
 * and runs of blank lines collapse to one, so blank release notes leave no gap.
 */
export function renderTemplate(parts: readonly TemplatePart[], values: TemplateValues): string {
  let text = "";
  let dropNextNewline = false;
  for (const part of parts) {
    if (part.kind === "variable") {
      const value = values[part.name];
      // A variable alone on its line takes the line with it when it is empty.
      dropNextNewline = value === "" && (text === "" || text.endsWith("\n"));
      text += value;
      continue;
    }
    text += dropNextNewline ? part.text.replace(/^\n/, "") : part.text;
    dropNextNewline = false;
  }
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const VERSION = /v?(\d+(?:\.\d+)*(?:[-+][0-9A-Za-z.+-]*)?)$/i;

/**
 * The version a tag names: `v1.2.3` → `1.2.3`, `pkg@2.0.0-rc.1` → `2.0.0-rc.1`. A tag that ends in no
 * number is its own version.
 */
export function versionFromTag(tag: string): string {
  return VERSION.exec(tag)?.[1] ?? tag;
}
