import { describe, expect, it } from "vitest";
import { parseNetworkTemplates } from "../src/network-templates.ts";

describe("the templates input", () => {
  it("reads one template per network, block scalars included; empty is none", () => {
    const templates = parseNetworkTemplates(
      'x: "{name} is out: {url}"\nLinkedIn: |\n  {repo} {name}\n  {body}\n',
    );
    expect(Object.keys(templates)).toEqual(["x", "linkedin"]);
    expect(templates.linkedin?.some((p) => p.kind === "variable" && p.name === "body")).toBe(true);
    expect(parseNetworkTemplates("  ")).toEqual({});
  });

  it("names the network, the variable or the shape that is wrong", () => {
    expect(() => parseNetworkTemplates("mastodon: hi")).toThrow(/unknown network "mastodon"/);
    expect(() => parseNetworkTemplates("x: '{nmae}'")).toThrow(/`templates` input's x uses \{nmae\}/);
    expect(() => parseNetworkTemplates("x:")).toThrow(/input's x is not text/);
    expect(() => parseNetworkTemplates("- x")).toThrow(/must be a map/);
    expect(() => parseNetworkTemplates("x: [")).toThrow(/is not YAML/);
  });
});
