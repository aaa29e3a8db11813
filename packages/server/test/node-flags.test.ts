import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import nodeFlags from "../node-flags.json" with { type: "json" };

// `socialpub-server` (the package's bin) starts through the shebang of src/cli.ts, which cannot read a
// file: it repeats the options, and this keeps the two the same. npm start's are checked in
// npm-start.test.ts, the benchmarks' server takes them from the file.
describe("the server's Node options", () => {
  it("are the ones the bin's shebang gives", () => {
    const shebang = readFileSync(new URL("../src/cli.ts", import.meta.url), "utf8").split("\n")[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${nodeFlags.flags.join(" ")}`);
  });
});
