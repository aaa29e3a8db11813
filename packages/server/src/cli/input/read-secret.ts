import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { CliError } from "../errors.ts";

/**
 * A secret for a command (an app password, a bot token, a webhook URL): from `--secret-file`, else
 * from standard input. Never from an argument, where it would land in the shell's history and in
 * every process listing. One trailing line break is dropped (what `echo` and editors add); a piped
 * value is read whole, a terminal is asked without echoing what is typed.
 */
export async function readSecret(what: string, file: string | undefined): Promise<string> {
  const text = file !== undefined ? readSecretFile(file, what) : await readStdin(what);
  const secret = text.replace(/\r?\n$/, "");
  if (secret.trim() === "") {
    throw new CliError(
      `no ${what} was given: pipe it on standard input or name a file holding it with --secret-file.`,
    );
  }
  if (/[\r\n]/.test(secret)) {
    throw new CliError(`the ${what} must be one line; check what was piped or put in --secret-file.`);
  }
  return secret;
}

function readSecretFile(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new CliError(`cannot read the ${what} from --secret-file ${file}: ${code}.`);
  }
}

async function readStdin(what: string): Promise<string> {
  if (process.stdin.isTTY) return askHidden(what);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Asks on the terminal; readline echoes into a sink, so what is typed never shows. */
function askHidden(what: string): Promise<string> {
  process.stderr.write(`${what[0]!.toUpperCase()}${what.slice(1)} (not shown): `);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: sink, terminal: true });
  return new Promise((resolve) => {
    rl.once("line", (line) => {
      rl.close();
      process.stderr.write("\n");
      resolve(line);
    });
    rl.once("close", () => resolve(""));
  });
}
