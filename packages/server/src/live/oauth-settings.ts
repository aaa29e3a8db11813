/*
 * An OAuth network's app, as the environment gives it: SOCIALPUB_<NETWORK>_CLIENT_ID and
 * SOCIALPUB_<NETWORK>_CLIENT_SECRET (from the network's developer console), optionally
 * SOCIALPUB_<NETWORK>_SCOPES (space-separated) to ask for other scopes than the adapter's own. What is
 * missing is named, so a connect answers 400 saying which setting to set.
 */

export interface OAuthAppSettings {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  missingSettings: string[];
}

export function oauthAppSettings(network: string, env: NodeJS.ProcessEnv): OAuthAppSettings {
  const prefix = `SOCIALPUB_${network.toUpperCase()}`;
  const clientId = env[`${prefix}_CLIENT_ID`]?.trim() || undefined;
  const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim() || undefined;
  const scopes = env[`${prefix}_SCOPES`]?.split(/[\s,]+/).filter(Boolean);
  return {
    ...(clientId && { clientId }),
    ...(clientSecret && { clientSecret }),
    ...(scopes && scopes.length > 0 && { scopes }),
    missingSettings: [
      ...(clientId ? [] : [`${prefix}_CLIENT_ID`]),
      ...(clientSecret ? [] : [`${prefix}_CLIENT_SECRET`]),
    ],
  };
}
