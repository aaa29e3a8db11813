import { existsSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import {
  api,
  runCli,
  runShell,
  type ServerProcess,
  startServerProcess,
  TEST_KEY,
} from "./support/cli-process.ts";
import { mostProcessesAtOnce, PROCESS_SLOTS } from "./support/process-slots.ts";

/** A test that runs a dozen or more CLI commands, two at a time, on a busy machine. */
const MANY_PROCESSES_MS = 240_000;

import { tempDir } from "./support/temp-dir.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop("SIGKILL")));
  for (const dir of dirs.splice(0)) dir.remove();
});

function newDb(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir.file("cli.db");
}

/** A database that exists, empty, as `start` leaves it: administration commands open only those. */
async function createdDb(): Promise<string> {
  const db = newDb();
  await openSqliteStore(db).close();
  return db;
}

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const server = await startServerProcess([...args, "--log-level", "warn"], env);
  servers.push(server);
  return server;
}

/** Runs a command that must succeed, and returns its standard output. */
async function ok(args: string[]): Promise<string> {
  const result = await runCli(args);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

function expectOneLineError(result: { code: number; stdout: string; stderr: string }, message: RegExp) {
  expect(result.code).not.toBe(0);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe("socialpub-server start --dev", () => {
  it("on an empty database prints a working test key, the base URL and a curl command", async () => {
    const server = await serve(["--dev", "--db", newDb()]);
    const key = server.printedKey!;
    expect(key).toMatch(/^sp_test_[0-9A-Za-z]{32,}$/);
    expect(server.output()).toContain(`Base URL: ${server.url}/api/v1`);
    expect(server.output()).toContain(`curl -H "Authorization: Bearer ${key}" ${server.url}/api/v1/me`);

    const me = await api(server, key, "GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: "dev@example.com", plan: "studio" });
  });

  it("connects eight sandbox networks and leaves tiktok, youtube, pinterest and reddit unconnected", async () => {
    const server = await serve(["--dev", "--dev-key", TEST_KEY, "--db", newDb()]);
    const accounts = await api(server, TEST_KEY, "GET", "/accounts");
    expect(accounts.body.data.map((a: { platform: string }) => a.platform)).toEqual([
      "instagram",
      "x",
      "linkedin",
      "facebook",
      "threads",
      "bluesky",
      "discord",
      "telegram",
    ]);
    const post = await api(server, TEST_KEY, "POST", "/posts", { caption: "hi", platforms: ["x", "reddit"] });
    expect(post.status).toBe(201);
    expect(post.body.platforms).toEqual(["x"]);
  });

  it("uses the key given with --dev-key, and on a database that has users creates none and prints no key", async () => {
    const db = newDb();
    const first = await serve(["--dev", "--dev-key", TEST_KEY, "--db", db]);
    expect(first.printedKey).toBe(TEST_KEY);
    expect(await first.stop("SIGINT")).toBe(0);

    const second = await serve(["--dev", "--db", db]);
    expect(second.printedKey).toBeNull();
    // The READMEs' name for a key the reader holds.
    expect(second.output()).toContain('Try: curl -H "Authorization: Bearer $KEY"');
    expect(second.output()).not.toContain("SOCIALPUB_API_KEY");
    // It says how to get a key, with a command that works as printed from a shell whose Node may be
    // older than 24: the toolchain wrapper runs it with Node 24, in the folder it was called from.
    const hint =
      /^Make a key with: (node \S*scripts\/toolchain\.mjs exec -- node \S*cli\.ts keys create --user dev@example\.com --db \S+)$/m.exec(
        second.output(),
      );
    expect(hint).not.toBeNull();
    const made = await runShell(hint![1]!);
    expect(made.code).toBe(0);
    const key = /^API key: (\S+)$/m.exec(made.stdout)![1]!;
    expect((await api(second, key, "GET", "/me")).body.email).toBe("dev@example.com");
    await second.stop();
    expect((await ok(["users", "list", "--db", db])).trim().split("\n")).toHaveLength(1);
  });

  it("takes its configuration from environment variables", async () => {
    const db = newDb();
    const server = await serve(["--dev"], { SOCIALPUB_DB: db, SOCIALPUB_DEV_KEY: TEST_KEY });
    expect(server.printedKey).toBe(TEST_KEY);
    expect(existsSync(db)).toBe(true);
  });

  it("ignores SOCIALPUB_DEV_KEY without --dev, even a malformed one", async () => {
    const db = newDb();
    const plain = await serve(["--db", db], { SOCIALPUB_DEV_KEY: TEST_KEY });
    expect(plain.printedKey).toBeNull();
    expect((await api(plain, TEST_KEY, "GET", "/me")).status).toBe(401);
    await plain.stop();
    const malformed = await serve(["--db", db], { SOCIALPUB_DEV_KEY: "sp_test_short" });
    await malformed.stop();
    expect((await ok(["users", "list", "--db", db])).trim()).toBe("");
    expectOneLineError(
      await runCli(["start", "--dev", "--port", "0", "--db", db], { SOCIALPUB_DEV_KEY: "sp_test_short" }),
      /SOCIALPUB_DEV_KEY must be sp_test_ followed by at least 32/,
    );
  });

  it("refuses to start with a SOCIALPUB_PUBLIC_URL that cannot be a redirect address", async () => {
    for (const value of [
      "social.example.com",
      "ftp://social.example.com",
      "https://social.example.com/?a=1",
    ]) {
      expectOneLineError(
        await runCli(["start", "--port", "0", "--db", newDb()], { SOCIALPUB_PUBLIC_URL: value }),
        /SOCIALPUB_PUBLIC_URL must be the server's address as browsers reach it/,
      );
    }
  });

  it("accepts webhook URLs on loopback addresses only with --dev or --allow-private-webhooks", async () => {
    const hook = { url: "http://127.0.0.1:9/hooks/socialpub" };
    const dev = await serve(["--dev", "--dev-key", TEST_KEY, "--db", newDb()]);
    expect(dev.output()).toContain("Webhook URLs on loopback and private addresses are accepted");
    expect((await api(dev, TEST_KEY, "POST", "/webhooks", hook)).status).toBe(201);

    const db = await createdDb();
    await ok([
      "users",
      "create",
      "--email",
      "ops@example.com",
      "--name",
      "Ops",
      "--studio",
      "Ops",
      "--db",
      db,
    ]);
    const key = /^API key: (\S+)$/m.exec(
      await ok(["keys", "create", "--user", "ops@example.com", "--db", db]),
    )![1]!;
    const strict = await serve(["--db", db]);
    expect((await api(strict, key, "POST", "/webhooks", hook)).status).toBe(400);
    await strict.stop();
    const allowing = await serve(["--allow-private-webhooks", "--db", db]);
    expect((await api(allowing, key, "POST", "/webhooks", hook)).status).toBe(201);
  });

  it("--rate-limit sets the requests a minute per key", async () => {
    const server = await serve(["--dev", "--dev-key", TEST_KEY, "--rate-limit", "2", "--db", newDb()]);
    expect((await api(server, TEST_KEY, "GET", "/me")).status).toBe(200);
    expect((await api(server, TEST_KEY, "GET", "/me")).status).toBe(200);
    expect((await api(server, TEST_KEY, "GET", "/me")).status).toBe(429);
  });

  it("refuses a second server on the same database, and starts again once the first was killed -9", async () => {
    const db = newDb();
    const first = await serve(["--db", db]);
    expectOneLineError(
      await runCli(["start", "--port", "0", "--db", db]),
      /another socialpub-server is running on/,
    );
    // Administration commands still work beside the running server.
    await ok(["users", "list", "--db", db]);
    expect(await first.stop("SIGKILL")).toBe("SIGKILL");
    const second = await serve(["--db", db]);
    expect(await second.stop("SIGTERM")).toBe(0);
  });

  it("stops with exit code 0 on SIGTERM", async () => {
    const server = await serve(["--db", newDb()]);
    expect(await server.stop("SIGTERM")).toBe(0);
  });
});

describe("administration commands", () => {
  it("users create adds a user that users list shows; a second user with the same e-mail is refused", async () => {
    const db = await createdDb();
    const created = await ok([
      "users",
      "create",
      "--email",
      "ana@example.com",
      "--name",
      "Ana",
      "--studio",
      "Ana Studio",
      "--plan",
      "creator",
      "--db",
      db,
    ]);
    expect(created).toMatch(/^Created user usr_\w+ <ana@example\.com> on the creator plan\.$/m);
    expect(await ok(["users", "list", "--db", db])).toMatch(
      /usr_\w+ {2}ana@example\.com {2}creator {2}Ana \(Ana Studio\)/,
    );
    expectOneLineError(
      await runCli([
        "users",
        "create",
        "--email",
        "ana@example.com",
        "--name",
        "A",
        "--studio",
        "S",
        "--db",
        db,
      ]),
      /already exists/,
    );
  });

  it("keys create prints a key the running server accepts; keys list shows only a hint; keys revoke shuts it out", async () => {
    const db = await createdDb();
    await ok([
      "users",
      "create",
      "--email",
      "bo@example.com",
      "--name",
      "Bo",
      "--studio",
      "Bo Studio",
      "--db",
      db,
    ]);
    const server = await serve(["--db", db]);

    const created = await ok(["keys", "create", "--user", "bo@example.com", "--db", db]);
    const key = /^API key: (sp_test_\w+)$/m.exec(created)![1]!;
    const keyId = /Created test key (key_\w+)/.exec(created)![1]!;
    expect((await api(server, key, "GET", "/me")).body.email).toBe("bo@example.com");

    const listed = await ok(["keys", "list", "--user", "bo@example.com", "--db", db]);
    expect(listed).toContain(keyId);
    expect(listed).toContain(`${key.slice(0, 8)}…${key.slice(-4)}`);
    expect(listed).not.toContain(key);
    expect(listed).toContain("active");
    // The call above marked it used; a key made in the dashboard shows its name too.
    expect(listed).toMatch(/last used \d{4}-/);
    const named = await api(server, key, "POST", "/keys", { mode: "test", name: "nightly export" });
    expect(await ok(["keys", "list", "--user", "bo@example.com", "--db", db])).toContain(
      `${named.body.id}  ${named.body.key.slice(0, 8)}…${named.body.key.slice(-4)}  test  created ${new Date(named.body.created_at).toISOString()}  never used  active  "nightly export"`,
    );

    expect(await ok(["keys", "revoke", keyId, "--db", db])).toContain(`Revoked key ${keyId}.`);
    const refused = await api(server, key, "GET", "/me");
    expect(refused).toEqual({ status: 401, body: { error: "Invalid or revoked API key." } });
    expect(await ok(["keys", "list", "--user", "bo@example.com", "--db", db])).toMatch(/revoked \d{4}-/);
    expectOneLineError(await runCli(["keys", "revoke", keyId, "--db", db]), /no active key/);
  });

  it("accounts connect adds a network the server publishes to; accounts disconnect takes it away", async () => {
    const db = newDb();
    const server = await serve(["--dev", "--dev-key", TEST_KEY, "--db", db]);
    const post = { caption: "to reddit", platforms: ["reddit"] };
    expect((await api(server, TEST_KEY, "POST", "/posts", post)).status).toBe(400);

    const user = "dev@example.com";
    expect(
      await ok([
        "accounts",
        "connect",
        "--user",
        user,
        "--platform",
        "reddit",
        "--handle",
        "devs",
        "--db",
        db,
      ]),
    ).toContain("Connected reddit account devs");
    const accounts = await api(server, TEST_KEY, "GET", "/accounts");
    expect(accounts.body.data).toContainEqual({
      platform: "reddit",
      handle: "devs",
      followers: 0,
      health: "healthy",
    });
    expect((await api(server, TEST_KEY, "POST", "/posts", post)).status).toBe(201);
    expect(await ok(["accounts", "list", "--user", user, "--db", db])).toContain("reddit  devs");

    await ok(["accounts", "disconnect", "--user", user, "--platform", "reddit", "--db", db]);
    expect(await api(server, TEST_KEY, "POST", "/posts", post)).toEqual({
      status: 400,
      body: { error: "Select at least one connected network." },
    });
    expectOneLineError(
      await runCli(["accounts", "disconnect", "--user", user, "--platform", "reddit", "--db", db]),
      /no reddit account connected/,
    );
  });

  it("accounts connect writes account.connected, or account.disconnected for an account that needs reauthorization", async () => {
    const db = await createdDb();
    const user = "dee@example.com";
    await ok(["users", "create", "--email", user, "--name", "Dee", "--studio", "Dee", "--db", db]);
    const connect = (platform: string, health: string) =>
      ok([
        "accounts",
        "connect",
        "--user",
        user,
        "--platform",
        platform,
        "--handle",
        "dee",
        "--health",
        health,
        "--db",
        db,
      ]);
    await connect("x", "healthy");
    await connect("bluesky", "reauth_required");
    await connect("linkedin", "expiring");
    const store = openSqliteStore(db);
    try {
      const { id } = (await store.findUserByEmail(user))!;
      expect((await store.listEvents(id)).map((e) => [e.type, e.data])).toEqual([
        ["account.connected", { platform: "x", handle: "dee", health: "healthy" }],
        ["account.disconnected", { platform: "bluesky", handle: "dee", health: "reauth_required" }],
        ["account.connected", { platform: "linkedin", handle: "dee", health: "expiring" }],
      ]);
    } finally {
      await store.close();
    }
  });

  it("accounts connect refuses a profile beyond the plan's allowance", async () => {
    const db = await createdDb();
    await ok([
      "users",
      "create",
      "--email",
      "cy@example.com",
      "--name",
      "Cy",
      "--studio",
      "Cy",
      "--plan",
      "free",
      "--db",
      db,
    ]);
    for (const platform of ["x", "bluesky", "linkedin"]) {
      await ok([
        "accounts",
        "connect",
        "--user",
        "cy@example.com",
        "--platform",
        platform,
        "--handle",
        "cy",
        "--db",
        db,
      ]);
    }
    expectOneLineError(
      await runCli([
        "accounts",
        "connect",
        "--user",
        "cy@example.com",
        "--platform",
        "threads",
        "--handle",
        "cy",
        "--db",
        db,
      ]),
      /free plan allows 3 connected profiles/,
    );
  });
});

describe("errors and help", () => {
  it(
    "bad flags and a database it cannot open give one line and a non-zero exit",
    async () => {
      const db = await createdDb();
      const notADatabase = `${db}.txt`;
      writeFileSync(notADatabase, "plain text, not SQLite\n".repeat(200));
      const cases: [string[], RegExp][] = [
        [["start", "--port", "http"], /--port <port>.*whole number/],
        [["start", "--port", "70000"], /whole number from 0 to 65535/],
        [["start", "--prot", "1"], /unknown option '--prot'.*Did you mean --port/],
        [["start", "--log-level", "loud"], /Allowed choices are trace/],
        [["start", "--retention-days", "a month"], /--retention-days <n>.*whole number, 0 or more/],
        [["start", "--publish-concurrency", "0"], /--publish-concurrency <n>.*whole number, 1 or more/],
        [["start", "--dev", "--dev-key", "sp_test_short", "--db", db], /--dev-key.*at least 32/],
        [
          ["start", "--dev-key", "sp_test_RestartAndKillTestsKey0123456789abcdef", "--db", db],
          /only applies with --dev/,
        ],
        [["start", "--db", notADatabase], /cannot open database .*: file is not a database/],
        [
          ["start", "--db", `${notADatabase}/inside/x.db`],
          /cannot open database .*: .*\.txt is not a folder/,
        ],
        // On /proc, mkdir with { recursive: true } never returned: the server spun at full CPU instead.
        ...(existsSync("/proc/self")
          ? [
              [
                ["start", "--db", "/proc/nope/x.db"],
                /cannot open database \/proc\/nope\/x\.db: cannot create/,
              ] as [string[], RegExp],
            ]
          : []),
        [["users", "list", "--db", `${notADatabase}/inside.db`], /cannot open database/],
        [
          ["users", "create", "--name", "N", "--studio", "S", "--db", db],
          /required option '--email <email>'/,
        ],
        [
          [
            "users",
            "create",
            "--email",
            "x@example.com",
            "--name",
            "N",
            "--studio",
            "S",
            "--plan",
            "gold",
            "--db",
            db,
          ],
          /Allowed choices are free, creator, studio/,
        ],
        [
          ["users", "create", "--email", "not-an-email", "--name", "N", "--studio", "S", "--db", db],
          /not an e-mail address/,
        ],
        [["keys", "create", "--user", "nobody@example.com", "--db", db], /no user "nobody@example.com"/],
        [
          ["accounts", "connect", "--user", "u", "--platform", "myspace", "--handle", "h", "--db", db],
          /must be one of tiktok/,
        ],
        [["frobnicate"], /unknown command 'frobnicate'/],
      ];
      const results = await Promise.all(cases.map(([args]) => runCli(args)));
      results.forEach((result, i) => {
        expectOneLineError(result, cases[i]![1]);
      });
    },
    MANY_PROCESSES_MS,
  );

  it(
    "administration commands refuse a database that does not exist, and create none",
    async () => {
      const db = newDb();
      const user = ["--user", "ana@example.com"];
      const commands = [
        ["users", "create", "--email", "ana@example.com", "--name", "Ana", "--studio", "Ana Studio"],
        ["users", "list"],
        ["keys", "create", ...user],
        ["keys", "list", ...user],
        ["keys", "revoke", "key_01JXXXXXXXXXXXXXXXXXXXXXXX"],
        ["accounts", "connect", ...user, "--platform", "x", "--handle", "ana"],
        ["accounts", "disconnect", ...user, "--platform", "x"],
        ["accounts", "list", ...user],
      ];
      const results = await Promise.all(commands.map((args) => runCli([...args, "--db", db])));
      for (const result of results) {
        expectOneLineError(result, /cannot open database \S*cli\.db: it does not exist; check --db/);
        expect(result.stderr).toContain(db);
      }
      const fromEnv = await runCli(["users", "list"], { SOCIALPUB_DB: db });
      expectOneLineError(fromEnv, /it does not exist; check --db \(or SOCIALPUB_DB\)/);
      expect(existsSync(db)).toBe(false);
    },
    MANY_PROCESSES_MS,
  );

  it("on a taken port says so on one line before it creates a database or a dev user", async () => {
    const server = await serve(["--db", newDb()]);
    const port = new URL(server.url).port;
    const db = newDb();
    const result = await runCli(["start", "--dev", "--port", port, "--db", db]);
    expectOneLineError(result, new RegExp(`port ${port} is in use .*--port N \\(npm start -- --port N\\)`));
    // No key printed for a server that never ran, and nothing written.
    expect(result.stdout).toBe("");
    expect(existsSync(db)).toBe(false);
  });

  it(
    "--help works on every command",
    async () => {
      const commands = [
        [],
        ["start"],
        ["users"],
        ["users", "create"],
        ["users", "list"],
        ["keys"],
        ["keys", "create"],
        ["keys", "list"],
        ["keys", "revoke"],
        ["accounts"],
        ["accounts", "connect"],
        ["accounts", "disconnect"],
        ["accounts", "list"],
        ["secrets"],
        ["secrets", "reseal"],
      ];
      const results = await Promise.all(commands.map((args) => runCli([...args, "--help"])));
      // Fifteen asked for at once, never more than the slots running together.
      expect(mostProcessesAtOnce()).toBeLessThanOrEqual(PROCESS_SLOTS);
      results.forEach((result, i) => {
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(
          new RegExp(`^Usage: socialpub-server ${commands[i]!.join(" ")}`.trimEnd()),
        );
      });
      expect(results[1]!.stdout).toContain("SOCIALPUB_DB");
    },
    MANY_PROCESSES_MS,
  );
});
