import { readFileSync, statSync } from "node:fs";
import { isNetworkId, NETWORK_IDS } from "@socialpub/core";
import { DESCRIPTIONS, settingVariable } from "@socialpub/networks/descriptions";
import { CliError } from "../cli/errors.ts";

/*
 * The networks' settings from a JSON file, as an alternative to environment variables (docs/deploy.md,
 * "Network settings in a file"):
 *
 *   { "public_url": "https://social.example.com",
 *     "networks": { "x": { "client_id": "…", "client_secret": "…", "scopes": ["tweet.read", …] } } }
 *
 * Each value stands for the variable of the same name: `public_url` for SOCIALPUB_PUBLIC_URL,
 * `networks.<network>.<setting>` for SOCIALPUB_<NETWORK>_<SETTING>, the settings each network's
 * description (@socialpub/networks) names. A variable that is set (not empty)
 * wins over the file, so one value can be changed for one run without editing it. The file holds
 * client secrets: no error about it ever quotes a value, only where it is.
 */

/** The file's settings as the environment variables they stand for. */
export function readConfigFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot read the config file ${path}: ${code === "ENOENT" ? "it does not exist" : (code ?? "unreadable")}.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // JSON.parse's own message quotes the text around the mistake, which may be a secret: say where only.
    throw new CliError(`the config file ${path} is not valid JSON (${whereInText(text, error)}).`);
  }
  return settingsOf(path, parsed);
}

function settingsOf(path: string, parsed: unknown): Record<string, string> {
  const wrong = (where: string, what: string) =>
    new CliError(
      `the config file ${path}: ${where} ${what} (see docs/deploy.md, "Network settings in a file").`,
    );
  if (!isObject(parsed)) throw wrong("the file", "must hold a JSON object");
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key === "public_url") {
      if (typeof value !== "string") throw wrong("public_url", "must be a string");
      settings.SOCIALPUB_PUBLIC_URL = value;
    } else if (key === "networks") {
      if (!isObject(value)) throw wrong("networks", "must be an object of networks");
      for (const [network, values] of Object.entries(value)) {
        if (!isNetworkId(network)) {
          throw wrong(`networks.${network}`, `is not a network (one of ${NETWORK_IDS.join(", ")})`);
        }
        if (!isObject(values)) throw wrong(`networks.${network}`, "must be an object of settings");
        const known = DESCRIPTIONS.find((d) => d.id === network)!.settings;
        for (const [name, setting] of Object.entries(values)) {
          const where = `networks.${network}.${name}`;
          const described = known.find((s) => s.name === name);
          if (!described) {
            throw wrong(where, `is not a setting (one of ${known.map((s) => s.name).join(", ")})`);
          }
          const listed = described.kind === "list";
          const flag = described.kind === "boolean";
          const text =
            listed && Array.isArray(setting) && setting.every((s) => typeof s === "string")
              ? setting.join(" ")
              : flag && typeof setting === "boolean"
                ? String(setting)
                : setting;
          if (typeof text !== "string") {
            throw wrong(
              where,
              listed ? "must be a list of strings" : flag ? "must be true or false" : "must be a string",
            );
          }
          settings[settingVariable(network, described)] = text;
        }
      }
    } else {
      throw wrong(key, "is not a setting (public_url, networks)");
    }
  }
  return settings;
}

/**
 * The environment the live adapters and the public URL are read from: the file's settings (when a
 * file is named, by --config or SOCIALPUB_CONFIG), each replaced by its variable when that is set and
 * not empty. Warns on standard error when the file holds a client secret and others may read it.
 */
export function environmentWithConfig(
  configPath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): NodeJS.ProcessEnv {
  if (!configPath) return env;
  const fromFile = readConfigFile(configPath);
  if (Object.keys(fromFile).some((name) => name.endsWith("_CLIENT_SECRET")) && readableByOthers(configPath)) {
    warn(
      `warning: the config file ${configPath} holds client secrets and other users can read it; make it private (chmod 600).`,
    );
  }
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(fromFile)) {
    if (env[name] === undefined || env[name] === "") merged[name] = value;
  }
  return merged;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function readableByOthers(path: string): boolean {
  if (process.platform === "win32") return false;
  return (statSync(path).mode & 0o044) !== 0;
}

/** "line L, column C" of a JSON.parse error, from the position its message gives; never the text. */
function whereInText(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}`;
  const position = /position (\d+)/.exec(message);
  if (!position) return text.trim() === "" ? "the file is empty" : "a mistake somewhere in it";
  const before = text.slice(0, Number(position[1]));
  const line = before.split("\n").length;
  return `line ${line}, column ${before.length - before.lastIndexOf("\n")}`;
}
