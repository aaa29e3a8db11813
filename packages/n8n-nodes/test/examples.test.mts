// The example workflows use this package's nodes as users will have them (type
// n8n-nodes-socialpub.*). Real n8n imports them in n8n.e2e.test.mts; this checks that every
// parameter they set exists on the node, is shown for their resource and operation, and holds a value
// the node offers — so an example cannot silently drift from the nodes.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  INodeProperties,
  INodePropertyCollection,
  INodePropertyOptions,
  INodeTypeDescription,
} from "n8n-workflow";
import { describe, expect, it } from "vitest";
import { SocialPublish } from "../nodes/SocialPublish/SocialPublish.node.ts";
import { SocialPublishTrigger } from "../nodes/SocialPublishTrigger/SocialPublishTrigger.node.ts";

const examplesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "examples", "n8n");
const descriptions: Record<string, INodeTypeDescription> = {
  "n8n-nodes-socialpub.socialPublish": new SocialPublish().description,
  "n8n-nodes-socialpub.socialPublishTrigger": new SocialPublishTrigger().description,
};

interface WorkflowNode {
  name: string;
  type: string;
  typeVersion: number;
  webhookId?: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, unknown>;
}

/** Whether n8n shows `property` for these values; a name starting with `/` reads the node's own (root). */
function isShown(
  property: INodeProperties,
  parameters: Record<string, unknown>,
  root: Record<string, unknown> = parameters,
): boolean {
  const show = property.displayOptions?.show ?? {};
  return Object.entries(show).every(([name, allowed]) =>
    (allowed as unknown[]).includes(name.startsWith("/") ? root[name.slice(1)] : parameters[name]),
  );
}

function optionValues(property: INodeProperties | INodePropertyCollection): unknown[] {
  return ((property as INodeProperties).options ?? []).map(
    (option) => (option as INodePropertyOptions).value,
  );
}

/** Problems with one parameter value, as sentences; `root` holds the node's parameters. */
function checkValue(property: INodeProperties, value: unknown, root: Record<string, unknown>): string[] {
  if (typeof value === "string" && value.startsWith("=")) return [];
  if (property.type === "options" && !optionValues(property).includes(value)) {
    return [
      `${property.name} = ${JSON.stringify(value)} is not one of ${JSON.stringify(optionValues(property))}`,
    ];
  }
  if (property.type === "multiOptions") {
    const allowed = optionValues(property);
    const values = value as unknown[];
    // A list loaded from the service (networks) can only be checked for shape here.
    if (property.typeOptions?.loadOptionsMethod)
      return Array.isArray(values) ? [] : [`${property.name} is not a list`];
    return values
      .filter((entry) => !allowed.includes(entry))
      .map((entry) => `${property.name} has unknown ${entry}`);
  }
  if (property.type === "collection") {
    const nested = (property.options ?? []) as INodeProperties[];
    return Object.entries(value as Record<string, unknown>).flatMap(([name, inner]) => {
      const field = nested.find((option) => option.name === name);
      if (!field) return [`${property.name}.${name} does not exist`];
      if (!isShown(field, value as Record<string, unknown>, root)) {
        return [`${property.name}.${name} is not shown for these settings`];
      }
      return checkValue(field, inner, root);
    });
  }
  return [];
}

function problemsOf(node: WorkflowNode): string[] {
  const description = descriptions[node.type];
  if (!description) return [`unknown node type ${node.type}`];
  const problems: string[] = [];
  if (node.typeVersion !== description.version) problems.push(`typeVersion ${node.typeVersion}`);
  if (!node.credentials?.socialPublishApi) problems.push("no socialPublishApi credential");
  if (description.webhooks && !node.webhookId) problems.push("a trigger needs a webhookId");
  for (const [name, value] of Object.entries(node.parameters)) {
    const property = description.properties.find((p) => p.name === name && isShown(p, node.parameters));
    if (!property) problems.push(`${name} is not a parameter shown for these settings`);
    else problems.push(...checkValue(property, value, node.parameters));
  }
  return problems;
}

const files = readdirSync(examplesDir).filter((file) => file.endsWith(".json"));

describe("examples/n8n", () => {
  it("has the three documented workflows", () => {
    expect(files.sort()).toEqual([
      "post-published-to-slack.json",
      "release-rss-to-post.json",
      "weekly-analytics-digest.json",
    ]);
  });

  it.each(files)("%s sets only parameters and values the Social Publish nodes offer", (file) => {
    const workflow = JSON.parse(readFileSync(join(examplesDir, file), "utf8")) as {
      id: string;
      nodes: WorkflowNode[];
      connections: Record<string, { main: Array<Array<{ node: string }>> }>;
    };
    expect(workflow.id).toMatch(/^[A-Za-z0-9]{16}$/);
    const ours = workflow.nodes.filter((node) => node.type.startsWith("n8n-nodes-socialpub."));
    expect(ours.length).toBeGreaterThan(0);
    for (const node of ours) expect(problemsOf(node), node.name).toEqual([]);
    const names = new Set(workflow.nodes.map((node) => node.name));
    for (const [from, outputs] of Object.entries(workflow.connections)) {
      expect(names.has(from), from).toBe(true);
      for (const target of outputs.main.flat()) expect(names.has(target.node), target.node).toBe(true);
    }
  });

  it("release-rss-to-post.json keys each post by its feed entry, so a release posts once", () => {
    const workflow = JSON.parse(readFileSync(join(examplesDir, "release-rss-to-post.json"), "utf8")) as {
      nodes: WorkflowNode[];
    };
    const publish = workflow.nodes.find((node) => node.type === "n8n-nodes-socialpub.socialPublish");
    const options = publish?.parameters.options as { idempotencyKey?: string } | undefined;
    expect(options?.idempotencyKey).toBe("=release-{{ $json.guid || $json.id || $json.link }}");
  });

  it("catches a parameter the node does not have", () => {
    const node: WorkflowNode = {
      name: "broken",
      type: "n8n-nodes-socialpub.socialPublish",
      typeVersion: 1,
      credentials: { socialPublishApi: {} },
      parameters: {
        resource: "post",
        operation: "create",
        publish: "later",
        limit: 3,
        options: { waitUntilPublished: true },
      },
    };
    expect(problemsOf(node)).toEqual([
      'publish = "later" is not one of ["now","schedule","draft"]',
      "limit is not a parameter shown for these settings",
      "options.waitUntilPublished is not shown for these settings",
    ]);
  });
});
