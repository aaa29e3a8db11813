import { closeSync, openSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { turnBatchedDestination } from "../src/log-destination.ts";
import { runProgram } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const LOGGING = new URL("../src/logging.ts", import.meta.url).href;

/** Runs `script` (an ES module) in a Node of its own; what it wrote to standard output, and its exit code. */
const node = (script: string) => runProgram(process.execPath, ["--input-type=module", "-e", script]);

const messages = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe("log lines written once per turn of the event loop", () => {
  it("holds a turn's lines and writes them when the turn ends, in order, then the next turn's", async () => {
    const dir = tempDir("socialpub-log-");
    const path = dir.file("log");
    const fd = openSync(path, "w");
    try {
      const destination = turnBatchedDestination(fd);
      destination.write("one\n");
      destination.write("two\n");
      destination.write("three\n");
      expect(readFileSync(path, "utf8")).toBe("");
      await endOfTurn();
      expect(readFileSync(path, "utf8")).toBe("one\ntwo\nthree\n");
      destination.write("four\n");
      await endOfTurn();
      expect(readFileSync(path, "utf8")).toBe("one\ntwo\nthree\nfour\n");
    } finally {
      closeSync(fd);
      dir.remove();
    }
  });

  it("writes the held lines of a process that exits in the same turn", async () => {
    const { stdout, code } = await node(`
      const { createLogger } = await import(${JSON.stringify(LOGGING)});
      const logger = createLogger();
      logger.info({}, "first");
      logger.info({}, "stopped");
      process.exit(0);
    `);
    expect(code).toBe(0);
    expect(messages(stdout)).toEqual(["first", "stopped"]);
  });

  it("writes the held lines of a process that dies of an uncaught error", async () => {
    const { stdout, code } = await node(`
      const { createLogger } = await import(${JSON.stringify(LOGGING)});
      createLogger().error({}, "about to fail");
      throw new Error("boom");
    `);
    expect(code).toBe(1);
    expect(messages(stdout)).toEqual(["about to fail"]);
  });

  it("shares one buffer between the loggers of a process, so their lines keep their order", async () => {
    const { stdout } = await node(`
      const { createLogger } = await import(${JSON.stringify(LOGGING)});
      const a = createLogger();
      const b = createLogger();
      a.info({}, "a1");
      b.info({}, "b1");
      a.info({}, "a2");
    `);
    expect(messages(stdout)).toEqual(["a1", "b1", "a2"]);
  });
});
