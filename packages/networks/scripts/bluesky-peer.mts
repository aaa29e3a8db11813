// Runs the Bluesky test peer (a real PDS with an in-memory PLC, on loopback) until Ctrl-C, with one
// account and an app password made on it, to try socialpub against it by hand:
//
//   pnpm --filter @socialpub/networks run bluesky-peer [name]
//
// It prints what POST /accounts/connect takes (the server must run with --dev: the PDS is on loopback).
// Install the PDS first: pnpm --filter @socialpub/networks run ci:prepare
import { startBlueskyPeer } from "../src/bluesky/peer/start-peer.ts";

const peer = await startBlueskyPeer();
const account = await peer.createAccount(process.argv[2] ?? "alice");
console.log(`The Bluesky PDS is serving at ${peer.url}. Connect its account with:`);
console.log(
  JSON.stringify(
    { platform: "bluesky", handle: account.handle, app_password: account.appPassword, service: peer.url },
    null,
    2,
  ),
);
console.log("Press Ctrl-C to stop it (its data is deleted).");

const stop = async () => {
  await peer.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
