import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MediaStorage } from "@socialpub/core";

/**
 * Keys are `med_` + a ULID, and for uploads since content URLs carry a token, `_` + that token (base64url);
 * anything else (a path, `..`) never reaches the file system.
 */
const MEDIA_ID = /^med_[0-9A-Za-z]{1,64}(?:_[0-9A-Za-z_-]{32})?$/;

/**
 * Uploaded media kept as files in a folder: `<id>` holds the bytes and `<id>.type` the Content-Type.
 * Each file is written under a temporary name and renamed into place, so a crash leaves a whole file or
 * none; both are written before the upload is answered, so an upload answered 201 survives the process
 * being killed.
 */
export class FileMediaStorage implements MediaStorage {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async put(id: string, bytes: Uint8Array<ArrayBuffer>, type: string): Promise<string> {
    if (!MEDIA_ID.test(id)) throw new Error(`Not a media id: ${JSON.stringify(id)}.`);
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, id);
    await this.writeWhole(`${path}.type`, type);
    await this.writeWhole(path, bytes);
    return path;
  }

  async get(id: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null> {
    if (!MEDIA_ID.test(id)) return null;
    const path = join(this.dir, id);
    try {
      const [bytes, type] = await Promise.all([readFile(path), readFile(`${path}.type`, "utf8")]);
      return {
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>,
        type,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  private async writeWhole(path: string, data: string | Uint8Array): Promise<void> {
    const temporary = `${path}.${randomUUID()}.tmp`;
    await writeFile(temporary, data);
    await rename(temporary, path);
  }
}
