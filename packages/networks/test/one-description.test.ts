import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { MEDIA_REQUIRED_NETWORKS, NETWORK_IDS } from "@socialpub/core";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DESCRIPTIONS } from "../src/descriptions.ts";
import { NETWORKS } from "../src/registry.ts";

/*
 * A network is described once: in its folder (packages/networks/src/<network>/), listed in the
 * registry, and named in the contract. Everything else that lists networks derives from the
 * descriptions, so code elsewhere never names a network's id by hand: not as a string ("bluesky",
 * `case "x":`) and not as a table keyed by network (`{ bluesky: …, telegram: … }`). Tests, docs,
 * fixtures and generated files are not code this looks at.
 */

const root = join(import.meta.dirname, "..", "..", "..");
const ids = new Set<string>(NETWORK_IDS);

/** Where code lives: each package's sources, scripts and (n8n) nodes; never tests or builds. */
const CODE_FOLDERS = ["src", "scripts", "nodes", "credentials", "serve"];

/**
 * The files allowed to name networks, each with why. A path ending in "/" is a folder.
 */
const ALLOWED: ReadonlyArray<[path: string, reason: string]> = [
  ["packages/core/src/contract/", "the contract: the twelve ids and their rules are defined there"],
  ["packages/networks/src/registry.ts", "the registry lists the networks"],
  ["packages/networks/src/descriptions.ts", "the descriptions list, the registry's light half"],
  // Core cannot depend on @socialpub/networks (the networks depend on core); what core needs per
  // network it keeps once, keyed by the contract's ids, and the compiler asks for a new network's entry.
  [
    "packages/core/src/service/sandbox/permalinks.ts",
    "sandbox permalinks: one table keyed by the contract's ids (core cannot read the networks' descriptions)",
  ],
  [
    "packages/core/src/service/oauth/grant-backfill.ts",
    "the networks whose grants end: core's backfill runs at start with or without live adapters, so it cannot ask them",
  ],
  ...[
    "packages/n8n-nodes/nodes/SocialPublish/resources/account/connect.ts",
    "packages/n8n-nodes/nodes/SocialPublish/resources/account/disconnect.ts",
    "packages/n8n-nodes/nodes/SocialPublish/resources/post/content.ts",
  ].map((path): [string, string] => [
    path,
    "a network field's default stays x: n8n saves a parameter left at its default by omission, so changing it would move saved workflows to another network",
  ]),
  [
    "packages/core/src/provision.ts",
    "a sandbox account's default handle is shaped like the network's (Bluesky's are domain names); core cannot read the descriptions",
  ],
  // Tests and fixtures that ship as code.
  ["packages/core/src/testing/", "the conformance suites: tests, run against every store and target"],
  ["packages/core/src/service/sandbox/sample-events.ts", "sample webhook payloads: fixtures"],
  ["packages/server/src/cli/admin/dev-user.ts", "the development user's sample accounts: fixtures"],
  ["packages/dashboard/scripts/screenshots.ts", "the screenshots' sample data: fixtures"],
  ["packages/networks/src/fake-cli.ts", "starts the networks' fakes for local testing"],
  ["packages/networks/scripts/bluesky-peer.mts", "starts Bluesky's local test peer"],
  ["packages/github-action/src/inputs.ts", "the Action's alias twitter → x, a name users still type"],
  ...["packages/github-action/src/direct/networks.ts", "packages/github-action/src/direct/x-direct.ts"].map(
    (path): [string, string] => [
      path,
      "the Action's direct mode posts to X on a path of its own (the user's OAuth 1.0a credentials, outside the in-job service): naming X is the point",
    ],
  ),
];

const isAllowed = (path: string) =>
  ALLOWED.some(([allowed]) => (allowed.endsWith("/") ? path.startsWith(allowed) : path === allowed)) ||
  /^packages\/networks\/src\/[a-z]+\//.test(path) ||
  /\.generated\.[cm]?ts$/.test(path);

function* codeFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "fixtures") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* codeFiles(path);
    else if (/\.(m?ts|tsx)$/.test(entry.name) && !/\.(test|e2e)\.|\.d\.ts$/.test(entry.name)) yield path;
  }
}

/** Where a file names a network's id in code: "file:line id". */
function namedIds(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, id: string) =>
    found.push(
      `${relative(root, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${id}`,
    );
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && ids.has(node.text)) {
      // An import path or a property access by name is not a network named.
      if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) at(node, node.text);
    }
    if (ts.isObjectLiteralExpression(node) || ts.isTypeLiteralNode(node)) {
      const keyed = (ts.isObjectLiteralExpression(node) ? node.properties : node.members)
        .map((member) => member.name)
        .filter((name): name is ts.Identifier => name !== undefined && ts.isIdentifier(name))
        .filter((name) => ids.has(name.text));
      // One key can be a coincidence (a point's x); two are a table by network.
      if (keyed.length >= 2) for (const name of keyed) at(name, name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("a network is described once", () => {
  it("the registry and the descriptions list every network of the contract, in its order", () => {
    expect(DESCRIPTIONS.map((d) => d.id)).toEqual([...NETWORK_IDS]);
    expect(NETWORKS.map((n) => n.id)).toEqual([...NETWORK_IDS]);
    for (const [i, network] of NETWORKS.entries()) {
      const { create, ...description } = network;
      expect(description, network.id).toEqual(DESCRIPTIONS[i]);
      expect(create({}).id, network.id).toBe(network.id);
    }
  });

  it("no code outside a network's folder, the registry and the contract names a network's id by hand", () => {
    const named: string[] = [];
    for (const pkg of readdirSync(join(root, "packages"))) {
      for (const folder of CODE_FOLDERS) {
        const dir = join(root, "packages", pkg, folder);
        let files: string[];
        try {
          files = [...codeFiles(dir)];
        } catch {
          continue;
        }
        for (const file of files) {
          if (!isAllowed(relative(root, file))) named.push(...namedIds(file));
        }
      }
    }
    expect(named).toEqual([]);
  });

  it("action.yml lists the contract's networks, and those that need media, as the contract has them", () => {
    const action = readFileSync(join(root, "packages", "github-action", "action.yml"), "utf8").replace(
      /\s+/g,
      " ",
    );
    const listed = /Networks to post to, separated by commas or newlines: ([a-z, ]+)\./.exec(action)?.[1];
    expect(listed?.split(", ")).toEqual([...NETWORK_IDS]);
    const needMedia = /Networks that cannot post text alone \(([a-z, ]+)\)/.exec(action)?.[1];
    expect(needMedia?.split(", ").sort()).toEqual(MEDIA_REQUIRED_NETWORKS.slice().sort());
  });

  it("each exception is still needed (a file that no longer names a network leaves the list)", () => {
    for (const [path] of ALLOWED.filter(([allowed]) => !allowed.endsWith("/"))) {
      if (path.startsWith("packages/networks/src/")) continue;
      expect(namedIds(join(root, path)).length, path).toBeGreaterThan(0);
    }
  });
});
