import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/*
 * The networks' machine-readable API descriptions live outside the repository, in
 * shared/specs/networks beside the checkout (../shared), and are never copied into it. A git worktree
 * sits deeper than the main checkout, so every folder above the repository is tried, nearest first.
 */

const SPECS_ENV = "SOCIALPUB_NETWORK_SPECS";

function repositoryRoot(): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, "pnpm-workspace.yaml"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`No pnpm-workspace.yaml above ${import.meta.dirname}`);
    dir = up;
  }
  return dir;
}

/** Where the description `file` is looked for, in order. */
export function specCandidates(file: string): string[] {
  const fromEnv = process.env[SPECS_ENV];
  if (fromEnv) return [join(fromEnv, file)];
  const candidates: string[] = [];
  let dir = dirname(repositoryRoot());
  for (;;) {
    candidates.push(join(dir, "shared", "specs", "networks", file));
    const up = dirname(dir);
    if (up === dir) return candidates;
    dir = up;
  }
}

/** Reads and parses a network's API description (discord-openapi.json, telegram-bot-api.json). */
export function readNetworkSpec(file: string): unknown {
  const candidates = specCandidates(file);
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `The network API description ${file} was not found (looked in ${candidates.join(", ")}). ` +
        `The fakes check every request and answer against it: put shared/ beside the repository ` +
        `(../shared/specs/networks/${file}) or set ${SPECS_ENV} to the folder that holds it.`,
    );
  }
  return JSON.parse(readFileSync(found, "utf8"));
}

/** The scopes an OpenAPI description's authorization-code OAuth scheme names (the ones its fake knows). */
export function oauthScopesOf(file: string, scheme: string): string[] {
  const spec = readNetworkSpec(file) as {
    components?: {
      securitySchemes?: Record<string, { flows?: { authorizationCode?: { scopes?: object } } }>;
    };
  };
  const scopes = spec.components?.securitySchemes?.[scheme]?.flows?.authorizationCode?.scopes;
  if (!scopes) throw new Error(`${file} names no authorization-code scopes for ${scheme}`);
  return Object.keys(scopes);
}
