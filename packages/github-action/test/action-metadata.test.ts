import { readFileSync } from "node:fs";
import { NETWORK_IDS, NETWORK_RULES } from "@socialpub/core";
import { CREDENTIAL_NETWORKS, DESCRIPTIONS } from "@socialpub/networks/descriptions";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DIRECT_NETWORKS, DIRECT_SECRET_INPUTS, directInputsOf } from "../src/direct/credentials.ts";
import { DIRECT_DEFINITIONS, X_DIRECT } from "../src/direct/networks.ts";
import { readInputs } from "../src/inputs.ts";
import { outputsFor, outputsForFailure } from "../src/report.ts";
import { DEFAULT_TEMPLATE } from "../src/template.ts";

interface Metadata {
  name: string;
  description: string;
  branding: { icon: string; color: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

const metadata = parse(readFileSync(new URL("../action.yml", import.meta.url), "utf8")) as Metadata;

describe("action.yml", () => {
  it("runs the committed bundle on node24 and carries name, description and branding", () => {
    expect(metadata.runs).toEqual({ using: "node24", main: "dist/index.js" });
    expect(metadata.name).not.toBe("");
    expect(metadata.description.length).toBeGreaterThan(40);
    expect(metadata.branding.icon).not.toBe("");
    expect(metadata.branding.color).not.toBe("");
  });

  it("declares exactly the inputs the action reads, each described", () => {
    const read = new Set<string>();
    readInputs((name) => {
      read.add(name);
      return { "api-key": "sp_test_key", "base-url": "https://a.test/api/v1" }[name] ?? "";
    });
    for (const name of ["api-key", "github-token"]) read.add(name); // also read by main before anything else
    expect(Object.keys(metadata.inputs).sort()).toEqual([...read].sort());
    for (const [name, input] of Object.entries(metadata.inputs)) {
      expect(input.description.trim(), name).not.toBe("");
    }
  });

  it("no input is required (service or direct mode decides); the defaults are the ones the code falls back to", () => {
    const required = Object.entries(metadata.inputs)
      .filter(([, input]) => input.required)
      .map(([name]) => name);
    expect(required).toEqual([]);
    expect(metadata.inputs.template!.default).toBe(DEFAULT_TEMPLATE);
    expect(metadata.inputs["skip-prerelease"]!.default).toBe("true");
    expect(metadata.inputs["dry-run"]!.default).toBe("false");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JavaScript placeholder
    expect(metadata.inputs["github-token"]!.default).toBe("${{ github.token }}");
  });

  it("declares exactly the outputs the action sets, each described", () => {
    const set = Object.keys(outputsFor({ kind: "ignored", reason: "" }));
    expect(Object.keys(metadata.outputs).sort()).toEqual(set.sort());
    expect(Object.keys(outputsForFailure()).sort()).toEqual(set.sort());
    for (const [name, output] of Object.entries(metadata.outputs)) {
      expect(output.description.trim(), name).not.toBe("");
    }
  });
});

describe("action.yml's direct mode, drift-checked against the networks' descriptions", () => {
  const directInputs = DIRECT_NETWORKS.flatMap((network) =>
    directInputsOf(network).map((input) => ({ network, ...input })),
  );

  it("direct mode posts to the networks that connect with credentials, and to X with its OAuth 1.0a keys", () => {
    // A network added that connects with credentials must be added to src/direct/networks.ts too: the
    // in-job service connects exactly those.
    expect(CREDENTIAL_NETWORKS.length).toBeGreaterThan(0);
    expect(DIRECT_DEFINITIONS.map((network) => network.id)).toEqual(
      CREDENTIAL_NETWORKS.map((network) => network.id),
    );
    // X connects with OAuth 2 in the service (no credentials to paste), so it is not among them: direct
    // mode reaches it on a path of its own, with the four OAuth 1.0a user-context credentials.
    expect(DESCRIPTIONS.find((network) => network.id === "x")?.connect.kind).toBe("oauth");
    expect(X_DIRECT.fields.map((field) => field.name)).toEqual([
      "api_key",
      "api_key_secret",
      "access_token",
      "access_token_secret",
    ]);
    expect([...DIRECT_NETWORKS]).toEqual(
      NETWORK_IDS.filter((id) => id === "x" || CREDENTIAL_NETWORKS.some((network) => network.id === id)),
    );
    const names = DIRECT_NETWORKS.map((network) => NETWORK_RULES[network].name);
    const listed = `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    expect(metadata.description.replace(/\s+/g, " ")).toContain(
      `directly to ${listed} with their own credentials`,
    );
  });

  it("declares one input per connect field of each direct network, in order, and no other network's", () => {
    const declared = Object.keys(metadata.inputs).filter((name) =>
      NETWORK_IDS.some((network) => name.startsWith(`${network}-`)),
    );
    expect(declared).toEqual(directInputs.map(({ input }) => input));
    for (const { network, input, field } of directInputs) {
      const description = metadata.inputs[input]!.description;
      expect(description, input).toMatch(new RegExp(`^Direct mode, ${NETWORK_RULES[network].name}: `));
      // A secret field's input is masked, and its description says so.
      expect(description.includes("Masked in the log"), input).toBe(field.secret);
      expect(DIRECT_SECRET_INPUTS.includes(input), input).toBe(field.secret);
    }
  });
});

describe("workflows that use the action", () => {
  interface Step {
    uses?: string;
    with?: Record<string, unknown>;
  }
  const directInputNames = DIRECT_NETWORKS.flatMap((network) =>
    directInputsOf(network).map(({ input }) => input),
  );
  const stepsUsing = (path: string, uses: RegExp): Step[] => {
    const workflow = parse(readFileSync(new URL(path, import.meta.url), "utf8")) as {
      jobs: Record<string, { steps: Step[] }>;
    };
    return Object.values(workflow.jobs).flatMap((job) =>
      job.steps.filter((step) => uses.test(step.uses ?? "")),
    );
  };

  const cases = [
    { path: "../../../examples/github/announce-release.yml", uses: /packages\/github-action@/ },
    { path: "../../../examples/github/announce-release-direct.yml", uses: /packages\/github-action@/ },
    { path: "../../../.github/workflows/github-action.yml", uses: /^\.\/packages\/github-action$/ },
  ];
  for (const { path, uses } of cases) {
    it(`${path.replace(/^(\.\.\/)+/, "")} gives one mode's inputs and only inputs the action has`, () => {
      const steps = stepsUsing(path, uses);
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) {
        const given = Object.keys(step.with ?? {});
        // Service mode (api-key and base-url) or direct mode (a network's credentials, no base-url).
        if (given.includes("base-url"))
          expect(given).toEqual(expect.arrayContaining(["api-key", "base-url"]));
        else
          expect(
            given.some((name) => directInputNames.includes(name)),
            path,
          ).toBe(true);
        for (const name of given) expect(Object.keys(metadata.inputs), name).toContain(name);
      }
    });
  }
});
