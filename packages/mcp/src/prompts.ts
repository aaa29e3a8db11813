import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { NETWORK_IDS } from "@socialpub/core";
import { z } from "zod";

const RULES = "Read the resource socialpub://networks/rules and call list_accounts first";

/** Prompts for common jobs: each tells the model which resources to read and which tools to call. */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    "announce_release",
    {
      title: "Announce a release",
      description:
        "Write and publish (or schedule) a release announcement, with text fitted to each network.",
      argsSchema: {
        product: z.string().describe("the product's name"),
        version: z.string().describe("the version released, e.g. 1.4.0"),
        notes: z.string().describe("the release notes or the main changes"),
        url: z.string().optional().describe("where to read more: release page, changelog, blog post"),
        when: z
          .string()
          .optional()
          .describe('"now" (default), "next" for the next optimal slot, or a time with a zone'),
      },
    },
    ({ product, version, notes, url, when }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: [
              `Announce ${product} ${version} on my connected social networks.`,
              `${RULES}, so you write only for networks I have connected and within each one's text limit.`,
              "Write one caption with the two or three changes that matter most to users, and give a network its own text in captions where its limit or audience calls for it (a short one for x and bluesky, a fuller one for linkedin).",
              url ? `End with the link ${url}.` : "",
              when && when !== "now"
                ? `Then call schedule_post with at set to ${JSON.stringify(when)}.`
                : "Show me the captions, and once I agree call publish_post.",
              "Afterwards call get_post_results and tell me what each network got, with its permalink or its error.",
              "",
              "Release notes:",
              notes,
            ]
              .filter((line) => line !== "")
              .join("\n"),
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    "thread_from_text",
    {
      title: "Turn a text into a thread",
      description:
        "Split a long text into a thread of short parts, each within the limit of the networks it is for, checked with validate_post.",
      argsSchema: {
        text: z.string().describe("the text to turn into a thread"),
        networks: z
          .string()
          .optional()
          .describe(
            "comma-separated network ids the thread is for (e.g. x, bluesky, threads); the connected ones when left out",
          ),
      },
    },
    ({ text, networks }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: [
              `Turn the text below into a thread for ${networks ? `these networks: ${networks}` : "the networks I have connected"}.`,
              `${RULES}. Split it into as few parts as fit the smallest text limit among those networks, as each counts length: break at paragraphs first, then sentences, then words, never inside a word, link or name, and end each part with its number, " 1/4", " 2/4"….`,
              "Check every part with validate_post for those networks: a part whose notes say its text was shortened is too long, so split it again.",
              "Answer with the parts in order and do not publish anything until I ask.",
              "",
              text,
            ].join("\n"),
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    "fit_to_networks",
    {
      title: "Fit a text to each network",
      description:
        "Rewrite a text for each network within its own limit, as captions for publish_post or schedule_post.",
      argsSchema: {
        text: z.string().describe("the text to adapt"),
        networks: z
          .string()
          .optional()
          .describe(
            `comma-separated network ids (${NETWORK_IDS.join(", ")}); the connected ones when left out`,
          ),
      },
    },
    ({ text, networks }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: [
              `Adapt the text below for ${networks ? `these networks: ${networks}` : "each network I have connected"}.`,
              `${RULES}. Keep each version within that network's text limit as it counts length, keep the meaning, links and names, and say which networks need media.`,
              "Answer with a captions object (network id → text) that publish_post or schedule_post takes, and do not publish until I ask.",
              "",
              text,
            ].join("\n"),
          },
        },
      ],
    }),
  );
}
