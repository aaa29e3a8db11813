import { describe, expect, it } from "vitest";
import {
  DEFAULT_TEMPLATE,
  parseTemplate,
  renderTemplate,
  TemplateError,
  type TemplateValues,
  usesVariable,
  versionFromTag,
} from "../src/template.ts";

const values: TemplateValues = {
  repo: "octo/app",
  owner: "octo",
  repo_name: "app",
  tag: "v2.1.0",
  name: "App 2.1",
  version: "2.1.0",
  url: "https://github.com/octo/app/releases/tag/v2.1.0",
  body: "• Faster starts",
};

const render = (template: string, overrides: Partial<TemplateValues> = {}) =>
  renderTemplate(parseTemplate(template), { ...values, ...overrides });

describe("template", () => {
  it("the default puts the title and the release URL before the notes", () => {
    expect(render(DEFAULT_TEMPLATE)).toBe(
      "octo/app App 2.1\nhttps://github.com/octo/app/releases/tag/v2.1.0\n\n• Faster starts",
    );
  });

  it("fills every variable", () => {
    expect(render("{repo}|{owner}|{repo_name}|{tag}|{name}|{version}|{url}|{body}")).toBe(
      "octo/app|octo|app|v2.1.0|App 2.1|2.1.0|https://github.com/octo/app/releases/tag/v2.1.0|• Faster starts",
    );
  });

  it("{{ and }} are literal braces", () => {
    expect(render("{{name}} is {name} {{")).toBe("{name} is App 2.1 {");
  });

  it("an unknown variable is refused with the list of known ones", () => {
    expect(() => parseTemplate("New: {nmae}")).toThrow(TemplateError);
    expect(() => parseTemplate("New: {nmae}")).toThrow(
      "The `template` input uses {nmae}, which is not a variable. Use {repo}, {owner}, {repo_name}, {tag}, {name}, {version}, {url}, {body}.",
    );
  });

  it("braces that are not a variable name stay as written", () => {
    expect(render("{ } {} {1x}")).toBe("{ } {} {1x}");
  });

  it("empty notes leave no trailing gap, and blank lines never pile up", () => {
    expect(render(DEFAULT_TEMPLATE, { body: "" })).toBe(
      "octo/app App 2.1\nhttps://github.com/octo/app/releases/tag/v2.1.0",
    );
    expect(render("{name}\n\n\n\n{url}  ")).toBe(
      "App 2.1\n\nhttps://github.com/octo/app/releases/tag/v2.1.0",
    );
  });

  it("an empty variable alone on its line takes the line with it", () => {
    expect(render("{name}\n{body}\n{url}", { body: "" })).toBe(
      "App 2.1\nhttps://github.com/octo/app/releases/tag/v2.1.0",
    );
    expect(render("{name} {body}\n{url}", { body: "" })).toBe(
      "App 2.1\nhttps://github.com/octo/app/releases/tag/v2.1.0",
    );
  });

  it("knows which variables a template shows", () => {
    expect(usesVariable(parseTemplate("{name} {url}"), "url")).toBe(true);
    expect(usesVariable(parseTemplate("{name} {{url}}"), "url")).toBe(false);
  });
});

describe("version from tag", () => {
  it.each([
    ["v1.2.3", "1.2.3"],
    ["V1.2.3", "1.2.3"],
    ["1.2.3", "1.2.3"],
    ["v2.0.0-rc.1", "2.0.0-rc.1"],
    ["@scope/pkg@2.0.0", "2.0.0"],
    ["pkg-v1.4.0", "1.4.0"],
    ["release-2024.05", "2024.05"],
    ["nightly", "nightly"],
  ])("%s → %s", (tag, version) => {
    expect(versionFromTag(tag)).toBe(version);
  });
});
