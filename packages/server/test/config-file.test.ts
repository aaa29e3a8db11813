import { chmodSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { environmentWithConfig, readConfigFile } from "../src/live/config-file.ts";
import { networkSettingsFromEnv } from "../src/live/network-adapters.ts";
import { tempDir } from "./support/temp-dir.ts";

/* The networks' settings from a JSON file (--config / SOCIALPUB_CONFIG), under the environment. */

const SECRET = "cs-very-secret-value-0123456789";
const dir = tempDir();
afterAll(() => dir.remove());

function file(name: string, content: unknown, mode = 0o600): string {
  const path = dir.file(name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  chmodSync(path, mode);
  return path;
}

const GOOD = {
  public_url: "https://social.example.com",
  networks: {
    x: {
      client_id: "x-client",
      client_secret: SECRET,
      scopes: ["tweet.read", "tweet.write", "offline.access"],
      api_url: "http://127.0.0.1:9/x",
    },
    telegram: { api_url: "http://127.0.0.1:9/telegram" },
    bluesky: { service_url: "http://127.0.0.1:9/pds" },
  },
};

/** What TikTok lets the app do, as its adapter reads the settings (no verified domain when unset). */
const posting = (tiktok: { audited?: boolean; verifiedDomains?: readonly string[] } | undefined) => ({
  audited: tiktok?.audited,
  verifiedDomains: tiktok?.verifiedDomains ?? [],
});

function failureOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a failure");
}

describe("network settings from a config file", () => {
  it("gives each value as the variable it stands for", () => {
    expect(readConfigFile(file("good.json", GOOD))).toEqual({
      SOCIALPUB_PUBLIC_URL: "https://social.example.com",
      SOCIALPUB_X_CLIENT_ID: "x-client",
      SOCIALPUB_X_CLIENT_SECRET: SECRET,
      SOCIALPUB_X_SCOPES: "tweet.read tweet.write offline.access",
      SOCIALPUB_X_API_URL: "http://127.0.0.1:9/x",
      SOCIALPUB_TELEGRAM_API_URL: "http://127.0.0.1:9/telegram",
      SOCIALPUB_BLUESKY_SERVICE_URL: "http://127.0.0.1:9/pds",
    });
  });

  it("a variable that is set wins over the file; an empty one does not; without a file the environment is as it is", () => {
    const path = file("env.json", GOOD);
    const env = environmentWithConfig(path, {
      SOCIALPUB_X_CLIENT_ID: "from-env",
      SOCIALPUB_PUBLIC_URL: "",
      OTHER: "kept",
    });
    expect(env.SOCIALPUB_X_CLIENT_ID).toBe("from-env");
    expect(env.SOCIALPUB_PUBLIC_URL).toBe("https://social.example.com");
    expect(env.SOCIALPUB_X_CLIENT_SECRET).toBe(SECRET);
    expect(env.OTHER).toBe("kept");
    const settings = networkSettingsFromEnv(env);
    expect(settings.x).toMatchObject({ clientId: "from-env", clientSecret: SECRET, missingSettings: [] });
    expect(settings.x?.scopes).toEqual(["tweet.read", "tweet.write", "offline.access"]);
    expect(settings.telegram?.apiUrl).toBe("http://127.0.0.1:9/telegram");
    const bare = { SOCIALPUB_X_CLIENT_ID: "only-env" };
    expect(environmentWithConfig(undefined, bare)).toBe(bare);
  });

  it("TikTok's audited (true or false) and verified_domains (a list) set what its app may do; unaudited by default", () => {
    const path = file("tiktok.json", {
      networks: { tiktok: { client_id: "aw-key", audited: true, verified_domains: ["media.example.com"] } },
    });
    const env = environmentWithConfig(path, {});
    expect(env.SOCIALPUB_TIKTOK_AUDITED).toBe("true");
    expect(posting(networkSettingsFromEnv(env).tiktok)).toEqual({
      audited: true,
      verifiedDomains: ["media.example.com"],
    });
    expect(posting(networkSettingsFromEnv({}).tiktok)).toEqual({ audited: false, verifiedDomains: [] });
    expect(
      failureOf(() => readConfigFile(file("tiktok-bad.json", { networks: { tiktok: { audited: 1 } } }))),
    ).toMatch(/networks\.tiktok\.audited must be true or false/);
  });

  it("YouTube's audited setting: true or false in the file or the environment, unaudited by default, anything else refused", () => {
    expect(readConfigFile(file("yt.json", { networks: { youtube: { audited: true } } }))).toEqual({
      SOCIALPUB_YOUTUBE_AUDITED: "true",
    });
    expect(
      failureOf(() => readConfigFile(file("yt-bad.json", { networks: { youtube: { audited: 1 } } }))),
    ).toMatch(/networks\.youtube\.audited must be true or false/);
    expect(networkSettingsFromEnv({}).youtube?.audited).toBe(false);
    expect(networkSettingsFromEnv({ SOCIALPUB_YOUTUBE_AUDITED: "true" }).youtube?.audited).toBe(true);
    expect(networkSettingsFromEnv({ SOCIALPUB_YOUTUBE_AUDITED: "False" }).youtube?.audited).toBe(false);
    expect(failureOf(() => networkSettingsFromEnv({ SOCIALPUB_YOUTUBE_AUDITED: "audited" }))).toMatch(
      /SOCIALPUB_YOUTUBE_AUDITED must be true or false/,
    );
  });

  it("names what is wrong and where, never quoting a value", () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { networks: { x: { client_secret: SECRET, clientId: "x" } } },
        /networks\.x\.clientId is not a setting/,
      ],
      [{ networks: { mastodon: { client_secret: SECRET } } }, /networks\.mastodon is not a network/],
      [{ networks: { x: { client_secret: 42 } } }, /networks\.x\.client_secret must be a string/],
      [{ networks: { x: { scopes: [SECRET, 1] } } }, /networks\.x\.scopes must be a list of strings/],
      [{ public_url: ["https://a"], networks: {} }, /public_url must be a string/],
      [{ secret_key: SECRET }, /secret_key is not a setting \(public_url, networks\)/],
      [[SECRET], /must hold a JSON object/],
    ];
    for (const [content, expected] of cases) {
      const message = failureOf(() => readConfigFile(file("wrong.json", content)));
      expect(message).toMatch(expected);
      expect(message).toContain("wrong.json");
      expect(message).not.toContain(SECRET);
    }
    const broken = failureOf(() =>
      readConfigFile(file("broken.json", `{\n  "networks": {"x": {"client_secret": "${SECRET}" oops}}\n}`)),
    );
    expect(broken).toMatch(/broken\.json is not valid JSON \(line 2, column \d+\)/);
    expect(broken).not.toContain(SECRET);
    const garbled = failureOf(() => readConfigFile(file("garbled.json", `{"a": "${SECRET}",\n x}`)));
    expect(garbled).toMatch(/not valid JSON/);
    expect(garbled).not.toContain(SECRET);
    expect(failureOf(() => readConfigFile(dir.file("missing.json")))).toMatch(
      /cannot read the config file .*missing\.json: it does not exist/,
    );
  });

  it("warns when others can read a file holding client secrets", () => {
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    environmentWithConfig(file("private.json", GOOD, 0o600), {}, warn);
    environmentWithConfig(file("no-secret.json", { public_url: "https://a.example" }, 0o644), {}, warn);
    expect(warnings).toEqual([]);
    environmentWithConfig(file("open.json", GOOD, 0o644), {}, warn);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/open\.json holds client secrets and other users can read it; .*chmod 600/);
    expect(warnings[0]).not.toContain(SECRET);
  });
});
