// Runs a real Bluesky PDS and an in-memory PLC directory on loopback, as a child process of the test
// peer starter (start-peer.ts). It runs on the Node.js installed in the PDS cache (the one its
// better-sqlite3 was compiled for) and loads the PDS from that cache, never from the repository.
//
// Configured like @atproto/dev-env's TestPds: SQLite and blobs in a fresh temporary folder, handles
// under .test, no invite codes, no e-mail, no AppView (app.bsky.* reads that the PDS proxies go to
// the address given, or nowhere). Prints one JSON line, {"url","plcUrl","adminPassword"}, once it
// serves; stops when its standard input closes (the parent is gone) or on SIGTERM.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

interface PeerConfig {
  cacheDir: string;
  rateLimits: boolean;
  appViewUrl?: string;
}

const config = JSON.parse(process.argv[2] ?? "{}") as PeerConfig;
const fromCache = createRequire(join(config.cacheDir, "package.json"));
const load = (name: string) => import(pathToFileURL(fromCache.resolve(name)).href);

/** A loopback port free right now; the PDS must know its port before it starts (it is in its URL). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

const pds = await load("@atproto/pds");
const plc = await load("@did-plc/server");
const { Secp256k1Keypair } = await load("@atproto/crypto");

const plcServer = plc.PlcServer.create({ db: plc.Database.mock(), port: await freePort() });
const plcHttp = await plcServer.start();
const plcUrl = `http://localhost:${(plcHttp.address() as { port: number }).port}`;

const dataDirectory = mkdtempSync(join(tmpdir(), "socialpub-pds-"));
const rotationKey = await Secp256k1Keypair.create({ exportable: true });
const adminPassword = randomBytes(16).toString("hex");

async function startPds(): Promise<{ server: { destroy(): Promise<void> }; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const env = {
      devMode: true,
      port,
      hostname: "localhost",
      dataDirectory,
      blobstoreDiskLocation: join(dataDirectory, "blobs"),
      didPlcUrl: plcUrl,
      serviceHandleDomains: [".test"],
      inviteRequired: false,
      disableSsrfProtection: true,
      rateLimitsEnabled: config.rateLimits,
      jwtSecret: randomBytes(32).toString("hex"),
      adminPassword,
      plcRotationKeyK256PrivateKeyHex: Buffer.from(await rotationKey.export()).toString("hex"),
      bskyAppViewUrl: config.appViewUrl ?? "http://127.0.0.1:9",
      bskyAppViewDid: "did:example:appview",
      modServiceUrl: "http://127.0.0.1:9",
      modServiceDid: "did:example:moderation",
      serviceName: "socialpub test PDS",
    };
    const server = await pds.PDS.create(pds.envToCfg(env), pds.envToSecrets(env));
    try {
      await server.start();
      return { server, port };
    } catch (error) {
      await server.destroy().catch(() => {});
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt >= 5) throw error;
    }
  }
}

const { server, port } = await startPds();

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.destroy().catch(() => {});
  await plcServer.destroy().catch(() => {});
  rmSync(dataDirectory, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ url: `http://localhost:${port}`, plcUrl, adminPassword })}\n`);
