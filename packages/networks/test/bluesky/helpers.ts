// What the Bluesky tests share: an AccountSession that keeps what the adapter saves, a fetch that
// records every XRPC method called, and a small PNG.
import { crc32, deflateSync } from "node:zlib";
import type { AccountSession, ConnectedAccount, Credentials } from "@socialpub/core";

export interface RecordedSession extends AccountSession {
  credentials: Credentials;
  saved: Credentials[];
}

/** An account session like the service's: saveCredentials replaces what the next publish reads. */
export function sessionOf(connected: ConnectedAccount, log?: string[]): RecordedSession {
  const session: RecordedSession = {
    handle: connected.handle,
    credentials: connected.credentials,
    saved: [],
    async saveCredentials(next) {
      log?.push("saveCredentials");
      session.saved.push(next);
      session.credentials = next;
    },
  };
  return session;
}

/** The XRPC method a request calls, e.g. com.atproto.server.createSession. */
export function methodOf(input: string | URL | Request): string {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  return url.pathname.replace(/^\/xrpc\//, "");
}

/** A fetch that logs each XRPC method it sends into `log`. */
export function loggingFetch(log: string[]): typeof fetch {
  return (input, init) => {
    log.push(methodOf(input));
    return fetch(input, init);
  };
}

export const countOf = (log: readonly string[], method: string) => log.filter((m) => m === method).length;

/** A valid width × height PNG of one colour (core's sample is 1×1: too square to tell width from height). */
export function solidPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // 8 bits per channel
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)]); // filter 0, grey pixels
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]),
  );
}

/**
 * The smallest MP4 that says its size: an `ftyp` box (brand isom) and a `moov` holding one track whose
 * header (`tkhd`) gives width × height, turned a quarter when `quarterTurn`. Nothing in it plays; a
 * PDS takes it as video/mp4 from its first bytes, as it does a real one.
 */
export function tinyMp4(width: number, height: number, quarterTurn = false): Uint8Array {
  const box = (type: string, ...content: Buffer[]) => {
    const body = Buffer.concat(content);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(8 + body.length);
    return Buffer.concat([size, Buffer.from(type, "ascii"), body]);
  };
  const ftyp = box("ftyp", Buffer.from("isom", "ascii"), Buffer.from([0, 0, 2, 0]), Buffer.from("isommp41"));
  const tkhd = Buffer.alloc(84); // version 0: flags, times, track id, duration, layer…, matrix, size
  tkhd.writeUInt32BE(1, 12); // track id
  const matrix = quarterTurn
    ? [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000]
    : [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];
  for (const [i, value] of matrix.entries()) tkhd.writeInt32BE(value, 40 + i * 4);
  tkhd.writeUInt32BE(width * 0x10000, 76);
  tkhd.writeUInt32BE(height * 0x10000, 80);
  return new Uint8Array(Buffer.concat([ftyp, box("moov", box("trak", box("tkhd", tkhd)))]));
}
