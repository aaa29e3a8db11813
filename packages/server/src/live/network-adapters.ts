import type { NetworkAdapters } from "@socialpub/core";
import {
  createAdapters,
  DESCRIPTIONS,
  type NetworkDescription,
  type NetworkSettings,
  type SettingDescription,
  settingVariable,
} from "@socialpub/networks";
import { CliError } from "../cli/errors.ts";

/*
 * The live adapters and the settings they are built from. Each network's description (in
 * @socialpub/networks) names its settings: SOCIALPUB_<NETWORK>_<SETTING> in the environment (or the
 * config file, config-file.ts), each read one way by its kind. Unset, each network is reached at its
 * own address; an OAuth network lacking its app's settings names them in the 400 a connect answers.
 */

export type { NetworkSettings };

/** An OAuth network's app as the environment gives it, and the variables still missing (named in a 400). */
export interface OAuthAppSettings {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  missingSettings: string[];
}

/**
 * The adapters live keys publish through, every network's built from its settings. A network whose
 * settings leave out a required one (an OAuth app's id or secret) is built knowing what is missing, so
 * connecting it answers 400 naming the variables to set, whether the settings came from the
 * environment or from code.
 */
export function networkAdapters(settings: NetworkSettings = {}): NetworkAdapters {
  const given = settings as Record<string, Record<string, unknown> | undefined>;
  const complete: Record<string, Record<string, unknown>> = {};
  for (const description of DESCRIPTIONS) {
    const options = given[description.id] ?? {};
    complete[description.id] =
      "missingSettings" in options ? options : withMissingSettings(description, options);
  }
  return createAdapters(complete as NetworkSettings);
}

/** `options` with the variables of the required settings it does not hold, for a network that has any. */
function withMissingSettings(
  description: NetworkDescription,
  options: Record<string, unknown>,
): Record<string, unknown> {
  const required = description.settings.filter((setting) => setting.required);
  if (required.length === 0) return options;
  const missingSettings = required
    .filter((setting) => options[setting.option] === undefined)
    .map((setting) => settingVariable(description.id, setting));
  return { ...options, missingSettings };
}

/** Every network's settings as the environment sets them. */
export function networkSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): NetworkSettings {
  const settings: Record<string, Record<string, unknown>> = {};
  for (const description of DESCRIPTIONS) settings[description.id] = settingsOf(description, env);
  return settings as NetworkSettings;
}

/** One network's settings: each set variable read by its kind, and the required ones that are not set. */
function settingsOf(description: NetworkDescription, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const setting of description.settings) {
    const variable = settingVariable(description.id, setting);
    const value = readSetting(setting, variable, env[variable]);
    if (value !== undefined) options[setting.option] = value;
    else if (setting.required) missing.push(variable);
  }
  const requires = description.settings.some((setting) => setting.required);
  return requires ? { ...options, missingSettings: missing } : options;
}

/**
 * A setting's value from its variable's text: a URL as given, text trimmed, a list split on spaces and
 * commas; empty, it is not set. A boolean is false unset, and anything but true or false is refused
 * rather than guessed (a wrong guess either fails every post or makes posts public).
 */
function readSetting(setting: SettingDescription, variable: string, text: string | undefined) {
  switch (setting.kind) {
    case "url":
      return text || undefined;
    case "text":
    case "secret":
      return text?.trim() || undefined;
    case "list": {
      const items = (text ?? "").split(/[\s,]+/).filter(Boolean);
      return items.length > 0 ? items : undefined;
    }
    case "boolean": {
      const v = text?.trim().toLowerCase() ?? "";
      if (v === "" || v === "false" || v === "0" || v === "no" || v === "off") return false;
      if (v === "true" || v === "1" || v === "yes" || v === "on") return true;
      throw new CliError(
        `${variable} must be true or false (${setting.about}); leave it unset for the default.`,
      );
    }
  }
}
