import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planFromEvent } from "../src/event.ts";
import { InputError } from "../src/input-error.ts";
import { reasonNotToAnnounce, releaseFromGitHub } from "../src/release.ts";
import { type RunContext, readRunContext } from "../src/run-context.ts";

const release = {
  id: 42,
  tag_name: "v2.1.0",
  name: "App 2.1",
  body: "## Fixes\n- one",
  html_url: "https://github.com/octo/app/releases/tag/v2.1.0",
  draft: false,
  prerelease: false,
  created_at: "2026-11-20T09:58:12Z",
  published_at: "2026-11-20T10:00:00Z",
};

const context = (eventName: string, payload: Record<string, unknown> = {}, ref = ""): RunContext => ({
  eventName,
  payload,
  ref,
  repository: "octo/app",
  apiUrl: "https://api.github.com",
});

describe("events", () => {
  it("release published: announces the release in the payload", () => {
    expect(planFromEvent(context("release", { action: "published", release }), undefined)).toEqual({
      kind: "announce",
      release: {
        id: 42,
        tag: "v2.1.0",
        name: "App 2.1",
        body: "## Fixes\n- one",
        url: "https://github.com/octo/app/releases/tag/v2.1.0",
        draft: false,
        prerelease: false,
        publishedAt: Date.parse("2026-11-20T10:00:00Z"),
      },
    });
  });

  it("other release actions are ignored with the trigger to use", () => {
    for (const action of ["created", "released", "prereleased", "edited"]) {
      const plan = planFromEvent(context("release", { action, release }), undefined);
      expect(plan).toMatchObject({ kind: "ignore" });
      expect(plan.kind === "ignore" && plan.reason).toContain("types: [published]");
    }
  });

  it("workflow_dispatch announces the release of the tag input, and needs one", () => {
    expect(planFromEvent(context("workflow_dispatch"), "v2.1.0")).toEqual({ kind: "lookup", tag: "v2.1.0" });
    expect(() => planFromEvent(context("workflow_dispatch"), undefined)).toThrow(InputError);
  });

  it("a tag push announces the pushed tag's release unless the tag input names another", () => {
    expect(planFromEvent(context("push", {}, "refs/tags/v2.1.0"), undefined)).toEqual({
      kind: "lookup",
      tag: "v2.1.0",
    });
    expect(planFromEvent(context("push", {}, "refs/tags/v2.1.0"), "v2.0.0")).toEqual({
      kind: "lookup",
      tag: "v2.0.0",
    });
  });

  it("a branch push and any other event are ignored with a reason", () => {
    expect(planFromEvent(context("push", {}, "refs/heads/main"), undefined)).toMatchObject({
      kind: "ignore",
    });
    const plan = planFromEvent(context("pull_request"), "v2.1.0");
    expect(plan).toMatchObject({ kind: "ignore" });
    expect(plan.kind === "ignore" && plan.reason).toMatch(/pull_request event has no release/);
  });
});

describe("which releases are announced", () => {
  it("drafts never", () => {
    expect(reasonNotToAnnounce(releaseFromGitHub({ ...release, draft: true }), false)).toMatch(/draft/);
  });

  it("prereleases only when skip-prerelease is false", () => {
    const pre = releaseFromGitHub({ ...release, prerelease: true });
    expect(reasonNotToAnnounce(pre, true)).toMatch(/skip-prerelease: false/);
    expect(reasonNotToAnnounce(pre, false)).toBeUndefined();
  });

  it("a release without a title is named by its tag", () => {
    expect(releaseFromGitHub({ ...release, name: "", body: null }).name).toBe("v2.1.0");
    expect(releaseFromGitHub({ ...release, name: null, body: null }).body).toBe("");
  });

  it("a payload without a release object is refused", () => {
    expect(() => releaseFromGitHub(undefined)).toThrow(/does not look like a GitHub release/);
  });
});

describe("run context", () => {
  it("reads the event from GITHUB_EVENT_PATH and the repository from the payload when the variable is missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "event-"));
    const path = join(dir, "event.json");
    writeFileSync(
      path,
      JSON.stringify({ action: "published", release, repository: { full_name: "octo/app" } }),
    );
    const read = readRunContext({
      GITHUB_EVENT_NAME: "release",
      GITHUB_EVENT_PATH: path,
      GITHUB_API_URL: "https://ghe.test/api/v3/",
    });
    expect(read).toMatchObject({
      eventName: "release",
      repository: "octo/app",
      apiUrl: "https://ghe.test/api/v3",
    });
    expect(read.payload.action).toBe("published");
  });

  it("an event file that is not JSON is an error that names it and says so", () => {
    const dir = mkdtempSync(join(tmpdir(), "event-"));
    const path = join(dir, "event.json");
    writeFileSync(path, '{"action": "published", oops');
    expect(() => readRunContext({ GITHUB_EVENT_NAME: "release", GITHUB_EVENT_PATH: path })).toThrow(
      `The event payload at GITHUB_EVENT_PATH (${path}) is not valid JSON (`,
    );
  });

  it("an unreadable event file is an error that names it", () => {
    expect(() => readRunContext({ GITHUB_EVENT_PATH: "/nonexistent/event.json" })).toThrow(
      /\/nonexistent\/event\.json/,
    );
  });
});
