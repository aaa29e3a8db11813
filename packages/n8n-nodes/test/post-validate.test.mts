import { NodeApiError } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import { postOperations } from "../nodes/SocialPublish/resources/post/index.ts";
import type { ExecuteOptions } from "./support/n8n-context.mts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

let service: InProcessService;
afterEach(async () => {
  await service?.close();
});

function options(
  parameters: ExecuteOptions["parameters"],
  extra: Partial<ExecuteOptions> = {},
): ExecuteOptions {
  return { http: service.http, credentials: service.credentials, parameters, ...extra };
}

const validate = (parameters: Record<string, unknown>) => ({
  resource: "post",
  operation: "validate",
  ...parameters,
});

async function postCount(): Promise<number> {
  const { output } = await runSocialPublish(
    options({ resource: "post", operation: "getAll", returnAll: true, filters: {} }),
  );
  return output.length;
}

describe("Post → Validate", () => {
  it("offers Create's fields for what the post says, where and when, without Create's options", () => {
    const names = (operation: string) => postOperations[operation]!.properties.map((field) => field.name);
    expect(names("validate")).toEqual(names("create").filter((name) => name !== "options"));
  });

  it("outputs what each network would get, one item per input item, and stores nothing", async () => {
    service = await inProcessService();
    const long = "Launch day. ".repeat(40).trim();
    const { output } = await runSocialPublish(
      options(
        [
          validate({
            caption: long,
            networks: ["x", "linkedin"],
            captions: { text: [{ network: "linkedin", text: "Launch day on LinkedIn" }] },
          }),
          validate({
            caption: "Later",
            networks: "bluesky",
            publish: "schedule",
            scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
          }),
        ],
        { items: [{ json: {} }, { json: {} }] },
      ),
    );
    expect(output).toHaveLength(2);
    expect(output[0]).toEqual({
      json: {
        valid: true,
        targets: [
          {
            platform: "x",
            parts: [{ text: expect.stringMatching(/^Launch day\. .*…$/), media: [] }],
            first_comment: null,
            notes: [expect.stringMatching(/^text shortened from 479 to \d+ characters/)],
          },
          {
            platform: "linkedin",
            parts: [{ text: "Launch day on LinkedIn", media: [] }],
            first_comment: null,
            notes: ["text from captions.linkedin instead of caption"],
          },
        ],
      },
      pairedItem: { item: 0 },
    });
    expect(output[1]).toEqual({
      json: { valid: true, targets: [expect.objectContaining({ platform: "bluesky", notes: [] })] },
      pairedItem: { item: 1 },
    });

    // The body Create would send, to /posts/validate, without an Idempotency-Key.
    const sent = service.http.to("POST", "/posts/validate");
    expect(sent.map((request) => request.body)).toEqual([
      { caption: long, platforms: ["x", "linkedin"], captions: { linkedin: "Launch day on LinkedIn" } },
      { caption: "Later", platforms: ["bluesky"], schedule_at: expect.any(Number) },
    ]);
    expect(sent.map((request) => request.headers["idempotency-key"])).toEqual([undefined, undefined]);
    expect(service.http.to("POST", "/posts")).toHaveLength(0);
    expect(await postCount()).toBe(0);
  });

  it("fails the item with the 400 Create would meet, naming what to fix", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const error = await failSocialPublish(
      options(validate({ caption: "no picture", networks: ["instagram"] })),
    );
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toMatch(/^instagram needs media: /);
    expect((error as unknown as NodeApiError).httpCode).toBe("400");
    expect(await postCount()).toBe(0);
  });

  it("with Continue (regular output), outputs a refused post as an error item beside the valid ones", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const { output } = await runSocialPublish(
      options(
        [
          validate({ caption: "no picture", networks: ["instagram"] }),
          validate({ caption: "ok", networks: ["x"] }),
        ],
        { items: [{ json: {} }, { json: {} }], continueOnFail: true },
      ),
    );
    expect(output[0]).toEqual({
      json: {
        error: expect.stringMatching(/^instagram needs media: /),
        description: expect.stringContaining("Request id: "),
        http_status: 400,
        request_id: expect.any(String),
      },
      pairedItem: { item: 0 },
    });
    expect(output[1]).toEqual({
      json: { valid: true, targets: [expect.objectContaining({ platform: "x" })] },
      pairedItem: { item: 1 },
    });
  });

  it("with Continue (using error output), keeps the refusal's details under details", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const { output } = await runSocialPublish(
      options(validate({ caption: "no picture", networks: ["instagram"] }), {
        continueOnFail: true,
        node: { onError: "continueErrorOutput" },
      }),
    );
    expect(output[0]).toEqual({
      json: {
        error: expect.stringMatching(/^instagram needs media: /),
        details: { description: expect.any(String), http_status: 400, request_id: expect.any(String) },
      },
      pairedItem: { item: 0 },
    });
  });

  it("uploads a binary file first, so the check sees the media as the network would get it", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
      "base64",
    );
    const { output } = await runSocialPublish(
      options(validate({ caption: "a dot", networks: ["instagram"], mediaSource: "binary" }), {
        items: [{ json: {}, binary: { data: { data: png.toString("base64"), mimeType: "image/png" } } }],
      }),
    );
    const [upload] = service.http.to("POST", "/media");
    expect(upload!.headers["idempotency-key"]).toMatch(/^n8n-[0-9a-f]{40}-media$/);
    const sent = service.http.to("POST", "/posts/validate")[0]!.body as { media: string };
    expect(sent.media).toMatch(/^med_/);
    expect(output[0]!.json).toEqual({
      valid: true,
      targets: [
        expect.objectContaining({
          platform: "instagram",
          parts: [{ text: "a dot", media: [{ url: expect.any(String), type: "image/png", alt: null }] }],
        }),
      ],
    });
    expect(await postCount()).toBe(0);
  });
});
