import { API_KEY_PATTERN } from "@socialpub/core";
import type { KeySource } from "./tool-error.ts";

/** Where to fix the key and the address when the server runs over stdio with its environment. */
export const ENV_KEY_SOURCE: KeySource = {
  fixKey:
    "Check SOCIALPUB_API_KEY in this MCP server's entry of your MCP client's configuration: it must be an active sp_test_… or sp_live_… key of the service at SOCIALPUB_BASE_URL.",
  fixBaseUrl:
    "Check SOCIALPUB_BASE_URL in this MCP server's entry of your MCP client's configuration: the service's address with its version, e.g. http://127.0.0.1:8787/api/v1.",
};

/** Where to fix them when each HTTP request brings its own key. */
export const BEARER_KEY_SOURCE: KeySource = {
  fixKey:
    "Check the key your MCP client sends as Authorization: Bearer …: it must be an active sp_test_… or sp_live_… key of this service.",
  fixBaseUrl:
    "The MCP server could not reach the socialpub API; whoever runs it should check its SOCIALPUB_BASE_URL.",
};

/** `sp_test_` or `sp_live_` and at least 32 base62 characters, at most 256 in all: the API's own rule. */
export function isWellFormedKey(value: string): boolean {
  return value.length <= 256 && API_KEY_PATTERN.test(value);
}
