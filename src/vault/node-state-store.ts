/**
 * A StateStore on the file system, for the CLI, the bridge and tests. Writes go to a temporary
 * file that is renamed into place, so a crash never leaves half a value; `createExclusive` uses
 * O_EXCL, so two processes can never both believe they created the same key. A process killed
 * mid-write leaves its temporary file behind: `list` removes those older than STALE_TEMP_MS.
 */
import { randomBytes } from "node:crypto";
import { appendFile, mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { checkStateKey, STALE_TEMP_MS, type StateStore } from "./state-store";

/** Where the plugin keeps its state inside a vault; the CLI and the bridge use the same folder. */
export const STATE_FOLDER = join(".obsidian", "plugins", "synapse", "state");

export { STALE_TEMP_MS };

/** Removes a temporary file an interrupted write left, if it is stale; never fails the listing. */
async function removeIfStale(path: string): Promise<void> {
  try {
    if (Date.now() - (await stat(path)).mtimeMs > STALE_TEMP_MS) await rm(path, { force: true });
  } catch {
    // Gone meanwhile (its write finished), or not ours to remove: the listing goes on.
  }
}

export class NodeStateStore implements StateStore {
  /** @param root the state folder itself, e.g. `join(vaultRoot, STATE_FOLDER)`. */
  constructor(readonly root: string) {}

  static forVault(vaultRoot: string): NodeStateStore {
    return new NodeStateStore(join(vaultRoot, STATE_FOLDER));
  }

  private path(key: string): string {
    return join(this.root, ...checkStateKey(key).split("/"));
  }

  async read(key: string): Promise<string | null> {
    return readFile(this.path(key), "utf8").catch(missing);
  }

  async readBytes(key: string): Promise<Uint8Array | null> {
    const buffer = await readFile(this.path(key)).catch(missing);
    return buffer ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : null;
  }

  /** The size of a key's file in bytes, or null when there is none (without reading it). */
  async sizeOf(key: string): Promise<number | null> {
    const s = await stat(this.path(key)).catch(() => null);
    return s?.isFile() ? s.size : null;
  }

  async write(key: string, content: string | Uint8Array): Promise<void> {
    const full = this.path(key);
    await mkdir(dirname(full), { recursive: true });
    const temp = `${full}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temp, content);
      await rename(temp, full);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async append(key: string, text: string): Promise<void> {
    const full = this.path(key);
    await mkdir(dirname(full), { recursive: true });
    await appendFile(full, text, "utf8");
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  /** Lists the keys, and removes the stale temporary files it passes (see STALE_TEMP_MS). */
  async list(prefix: string): Promise<string[]> {
    const base = this.path(prefix);
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && entry.name.endsWith(".tmp")) await removeIfStale(full);
        else if (entry.isFile()) out.push(relative(this.root, full).split(sep).join("/"));
      }
    };
    await walk(base);
    return out.sort();
  }

  async createExclusive(key: string, content: string): Promise<boolean> {
    const full = this.path(key);
    await mkdir(dirname(full), { recursive: true });
    let handle;
    try {
      handle = await open(full, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  }
}

function missing(error: unknown): null {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
  throw error;
}
