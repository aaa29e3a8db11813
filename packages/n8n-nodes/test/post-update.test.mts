import { NodeOperationError } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import type { ExecuteOptions } from "./support/n8n-context.mts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

let service: InProcessService;
afterEach(async () => {
  await service?.close();
});

function options(parameters: ExecuteOptions["parameters"]): ExecuteOptions {
  return { http: service.http, credentials: service.credentials, parameters };
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function texts(postId: unknown): Promise<Record<string, string>> {
  const { output } = await runSocialPublish(options({ resource: "post", operation: "getTargets", postId }));
  return Object.fromEntries(output.map((item) => [item.json.platform, item.json.text]));
}

async function scheduledPost(extra: Record<string, unknown> = {}) {
  const { output } = await runSocialPublish(
    options({
      resource: "post",
      operation: "create",
      caption: "original",
      networks: ["x", "linkedin"],
      publish: "schedule",
      scheduleAt: inAnHour(),
      ...extra,
    }),
  );
  return output[0]!.json;
}

describe("Text per Network", () => {
  it("gives each network its own text on Create; networks without one get Caption", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish(
      options({
        resource: "post",
        operation: "create",
        caption: "for everyone",
        networks: ["x", "linkedin", "bluesky"],
        captions: {
          text: [
            { network: "x", text: "for X" },
            { network: "bluesky", text: "" },
          ],
        },
      }),
    );
    expect(service.http.to("POST", "/posts")[0]!.body).toMatchObject({ captions: { x: "for X" } });
    expect(await texts(output[0]!.json.id)).toEqual({
      x: "for X",
      linkedin: "for everyone",
      bluesky: "for everyone",
    });
  });

  it("refuses a network named twice before calling the service", async () => {
    service = await inProcessService();
    const error = await failSocialPublish(
      options({
        resource: "post",
        operation: "create",
        caption: "c",
        networks: ["x"],
        captions: {
          text: [
            { network: "x", text: "one" },
            { network: "x", text: "two" },
          ],
        },
      }),
    );
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toBe("Text per Network has two texts for x");
    expect(service.http.requests).toHaveLength(0);
  });
});

describe("Post → Update", () => {
  it("changes the caption, texts per network and time of a scheduled post", async () => {
    service = await inProcessService();
    const post = await scheduledPost();
    const later = Date.now() + 2 * 3_600_000;
    const { output } = await runSocialPublish(
      options({
        resource: "post",
        operation: "update",
        postId: post.id,
        updateFields: { caption: "edited", scheduleAt: new Date(later).toISOString() },
        captions: { text: [{ network: "linkedin", text: "edited for LinkedIn" }] },
      }),
    );
    expect(output[0]!.json).toMatchObject({
      id: post.id,
      caption: "edited",
      status: "scheduled",
      scheduled_at: later,
    });
    const [request] = service.http.to("PATCH", `/posts/${post.id}`);
    expect(request!.body).toEqual({
      caption: "edited",
      schedule_at: later,
      captions: { linkedin: "edited for LinkedIn" },
    });
    expect(request!.headers["idempotency-key"]).toMatch(/^n8n-[0-9a-f]{40}$/);
    expect(await texts(post.id)).toEqual({ x: "edited", linkedin: "edited for LinkedIn" });
  });

  it("makes a scheduled post a draft again with Unschedule, and replaces its networks", async () => {
    service = await inProcessService();
    const post = await scheduledPost();
    const { output } = await runSocialPublish(
      options({
        resource: "post",
        operation: "update",
        postId: post.id,
        updateFields: { unschedule: true, networks: "bluesky" },
      }),
    );
    expect(output[0]!.json).toMatchObject({ status: "draft", scheduled_at: null, platforms: ["bluesky"] });
  });

  it("says there is nothing to update before calling the service", async () => {
    service = await inProcessService();
    const error = await failSocialPublish(
      options({ resource: "post", operation: "update", postId: "post_x", updateFields: {} }),
    );
    expect(error.message).toBe("Nothing to update");
    expect(service.http.requests).toHaveLength(0);
  });

  it("passes on the service's refusal of a published post", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish(
      options({ resource: "post", operation: "create", caption: "out", networks: ["x"] }),
    );
    const error = await failSocialPublish(
      options({
        resource: "post",
        operation: "update",
        postId: output[0]!.json.id,
        updateFields: { caption: "too late" },
      }),
    );
    expect(error.httpCode).toBe("409");
  });
});
