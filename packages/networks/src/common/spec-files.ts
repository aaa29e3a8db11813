import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/*
 * The networks' machine-readable API descriptions, kept in the repository under
 * packages/networks/specs/ (gzipped, each with its licence; specs/README.md names each one's source and
 * commit). The fakes check every request and answer against them, so a clone of the repository alone
 * runs every test. SOCIALPUB_NETWORK_SPECS names another folder to read them from (for trying a newer
 * description before replacing the vendored one), plain or gzipped.
 */

const SPECS_ENV = "SOCIALPUB_NETWORK_SPECS";
const VENDORED = join(import.meta.dirname, "..", "..", "specs");

/** Where the description `file` is looked for, in order: plain, then gzipped. */
export function specCandidates(file: string): string[] {
  const dir = process.env[SPECS_ENV] || VENDORED;
  return [join(dir, file), join(dir, `${file}.gz`)];
}

/**
 * Reads and parses a network's API description (discord-openapi.json, telegram-bot-api.json): a new
 * object each call, since its users (openapi-backend, typedNullables) change the tree they are given.
 */
export function readNetworkSpec(file: string): unknown {
  const candidates = specCandidates(file);
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `The network API description ${file} was not found (looked in ${candidates.join(", ")}). ` +
        `The repository keeps them in packages/networks/specs/; unset ${SPECS_ENV} to read those, or ` +
        `put ${file} in the folder it names.`,
    );
  }
  const bytes = readFileSync(found);
  return JSON.parse((found.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"));
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
