import { readFileSync } from "node:fs";

/** Release notes of a real project, as a release body. */
export const TFLINT_NOTES = readFileSync(
  new URL("../fixtures/release-notes/tflint-v0.64.0.md", import.meta.url),
  "utf8",
);

export interface ReleaseFields {
  id: number;
  tag: string;
  name?: string;
  body?: string;
  draft?: boolean;
  prerelease?: boolean;
}

export const RELEASE_CREATED_AT = "2026-11-20T09:58:12Z";
export const RELEASE_PUBLISHED_AT = "2026-11-20T10:00:00Z";

/** A release object as GitHub's webhook payload and REST API give it (the fields that matter here). */
export function releaseObject(fields: ReleaseFields, repository = "octo/app") {
  return {
    id: fields.id,
    tag_name: fields.tag,
    name: fields.name ?? fields.tag,
    body: fields.body ?? TFLINT_NOTES,
    html_url: `https://github.com/${repository}/releases/tag/${fields.tag}`,
    draft: fields.draft ?? false,
    prerelease: fields.prerelease ?? false,
    target_commitish: "main",
    created_at: RELEASE_CREATED_AT,
    published_at: RELEASE_PUBLISHED_AT,
  };
}

/** The `release` event's payload for `action`. */
export function releaseEvent(action: string, fields: ReleaseFields, repository = "octo/app") {
  return {
    action,
    release: releaseObject(fields, repository),
    repository: { full_name: repository, name: repository.split("/")[1] },
  };
}
