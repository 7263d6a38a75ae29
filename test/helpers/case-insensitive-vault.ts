/**
 * A vault on a case- and normalisation-insensitive file system, as macOS (APFS, HFS+) and Windows
 * (NTFS) have by default: `Note.md`, `note.md` and a decomposed `Note\u0301.md` name one file,
 * which keeps the spelling it was created or last renamed with. Over a MemoryVault.
 */
import { nameKey } from "../../src/core/unicode";
import { SynapseError } from "../../src/core/errors";
import { MemoryVault } from "../../src/vault/memory-vault";
import { NO_STRAY_FILES, type StrayFiles, type VaultPort, type VaultStat } from "../../src/vault/vault-port";

export class CaseInsensitiveVault implements VaultPort {
  private readonly inner = new MemoryVault();
  /** Folded path → the spelling the file has on disk. */
  private readonly spelling = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(initial)) void this.create(path, content);
  }

  /** The file's own spelling, whatever spelling the caller used. */
  private on(path: string): string {
    return this.spelling.get(nameKey(path)) ?? path;
  }

  stat(path: string): Promise<VaultStat | null> {
    return this.inner.stat(this.on(path));
  }
  readBytes(path: string): Promise<Uint8Array> {
    return this.inner.readBytes(this.on(path));
  }
  read(path: string): Promise<string> {
    return this.inner.read(this.on(path));
  }
  list(folder: string): Promise<string[]> {
    return this.inner.list(folder);
  }
  create(path: string, content: string): Promise<void> {
    if (this.spelling.has(nameKey(path))) return Promise.reject(new SynapseError("vault", `"${path}" already exists.`));
    this.spelling.set(nameKey(path), path);
    return this.inner.create(path, content);
  }
  process(path: string, update: (current: string) => string): Promise<string> {
    return this.inner.process(this.on(path), update);
  }
  createFolder(): Promise<void> {
    return Promise.resolve();
  }
  async remove(path: string): Promise<void> {
    await this.inner.remove(this.on(path));
    this.spelling.delete(nameKey(path));
  }
  append(path: string, text: string): Promise<void> {
    return this.inner.append(this.on(path), text);
  }
  replaceIfUnchanged(path: string, expected: string, next: string | readonly string[]): Promise<boolean> {
    return this.inner.replaceIfUnchanged(this.on(path), expected, next);
  }
  async removeIfUnchanged(path: string, expected: string): Promise<boolean> {
    const removed = await this.inner.removeIfUnchanged(this.on(path), expected);
    if (removed) this.spelling.delete(nameKey(path));
    return removed;
  }
  removeStrayTempFiles(): Promise<StrayFiles> {
    return Promise.resolve(NO_STRAY_FILES);
  }

  /** What `mv Note.md note.md` does there: the same file, spelled anew. */
  async rename(from: string, to: string): Promise<void> {
    const content = await this.read(from);
    await this.remove(from);
    await this.create(to, content);
  }
}
