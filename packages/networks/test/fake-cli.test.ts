import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { withProcessSlot } from "../../../test-support/process-slots.ts";
import { discordAdapter, telegramAdapter } from "../src/index.ts";
import { contextOf, postOf, sessionOf } from "./helpers/session.ts";

const CLI = new URL("../src/fake-cli.ts", import.meta.url).pathname;
const children: ChildProcess[] = [];

interface Printed {
  network: string;
  url: string;
  env: Record<string, string>;
  connect: Record<string, unknown>;
}

/** Starts the CLI as the README says and reads its first stdout line. */
function startCli(network: string): Promise<{ child: ChildProcess; line: Printed }> {
  // A slot until it prints its first line: a started fake is idle, its start is what costs.
  return withProcessSlot(() => startCliNow(network));
}

async function startCliNow(network: string): Promise<{ child: ChildProcess; line: Printed }> {
  const child = spawn(process.execPath, [CLI, network], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`fake-cli exited with ${code} before printing`)));
  });
  return { child, line: JSON.parse(first) as Printed };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

describe("fake-cli", () => {
  it("starts each fake with a seeded account the adapters connect and publish to, and stops on SIGTERM", async () => {
    const [telegram, discord] = await Promise.all([startCli("telegram"), startCli("discord")]);
    expect(telegram.line.env).toEqual({ SOCIALPUB_TELEGRAM_API_URL: telegram.line.url });
    const tg = telegramAdapter({ apiUrl: telegram.line.url });
    const tgAccount = await tg.connect(telegram.line.connect, contextOf());
    expect(tgAccount).toMatchObject({ handle: "@socialpub_demo", followers: 42 });
    expect((await tg.publish(sessionOf(tgAccount.credentials), postOf("hello"))).permalink).toBe(
      "https://t.me/socialpub_demo/1",
    );

    expect(discord.line.env).toEqual({ SOCIALPUB_DISCORD_API_URL: discord.line.url });
    const dc = discordAdapter({ apiUrl: discord.line.url });
    const dcAccount = await dc.connect(discord.line.connect, contextOf());
    expect(dcAccount.handle).toBe("socialpub demo");
    expect((await dc.publish(sessionOf(dcAccount.credentials), postOf("hello"))).permalink).toMatch(
      /^https:\/\/discord\.com\/channels\/\d+\/\d+\/\d+$/,
    );

    const exits = [exitOf(telegram.child), exitOf(discord.child)];
    telegram.child.kill("SIGTERM");
    discord.child.kill("SIGTERM");
    expect(await Promise.all(exits)).toEqual([0, 0]);
  }, 180_000);

  it("says how to use it when the network is unknown", async () => {
    const { code, stderr } = await withProcessSlot(async () => {
      const child = spawn(process.execPath, [CLI, "myspace"], { stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let stderr = "";
      child.stderr!.on("data", (chunk) => {
        stderr += chunk;
      });
      return { code: await exitOf(child), stderr };
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/usage: node packages\/networks\/src\/fake-cli.ts telegram\|discord/);
  }, 60_000);
});
