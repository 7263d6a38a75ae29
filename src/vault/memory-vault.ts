/**
 * An in-memory VaultPort: for tests, and for benchmarks that measure Synapse's own work apart from
 * the disk. Same contract as the file-system vault, including create-never-overwrites.
 */
import { SynapseError } from "../core/errors";
import { NO_STRAY_FILES, type StrayFiles, type VaultPort, type VaultStat } from "./vault-port";

export class MemoryVault implements VaultPort {
  private readonly files = new Map<string, { content: string; mtime: number }>();
  private clock = 0;

  constructor(initial: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(initial)) this.files.set(path, { content, mtime: 0 });
  }

  private get(path: string): string {
    const file = this.files.get(path);
    if (!file) throw new SynapseError("vault", `"${path}" does not exist.`);
    return file.content;
  }

  stat(path: string): Promise<VaultStat | null> {
    const file = this.files.get(path);
    return Promise.resolve(file ? { size: new TextEncoder().encode(file.content).length, mtime: file.mtime } : null);
  }

  readBytes(path: string): Promise<Uint8Array> {
    return Promise.resolve(new TextEncoder().encode(this.get(path)));
  }

  read(path: string): Promise<string> {
    return Promise.resolve(this.get(path));
  }

  list(folder: string): Promise<string[]> {
    const prefix = folder.replace(/\/+$/, "");
    return Promise.resolve(
      [...this.files.keys()].filter((p) => p.toLowerCase().endsWith(".md") && (prefix === "" || p.startsWith(`${prefix}/`))).sort(),
    );
  }

  create(path: string, content: string): Promise<void> {
    if (this.files.has(path)) return Promise.reject(new SynapseError("vault", `"${path}" already exists.`));
    this.files.set(path, { content, mtime: ++this.clock });
    return Promise.resolve();
  }

  process(path: string, update: (current: string) => string): Promise<string> {
    try {
      const current = this.get(path);
      const next = update(current);
      if (next !== current) this.files.set(path, { content: next, mtime: ++this.clock });
      return Promise.resolve(next);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Compared and written in one step: nothing else runs in between. */
  replaceIfUnchanged(path: string, expected: string, next: string | readonly string[]): Promise<boolean> {
    const file = this.files.get(path);
    if (file?.content !== expected) return Promise.resolve(false);
    const content = typeof next === "string" ? next : next.join("");
    if (content !== expected) this.files.set(path, { content, mtime: ++this.clock });
    return Promise.resolve(true);
  }

  removeIfUnchanged(path: string, expected: string): Promise<boolean> {
    const file = this.files.get(path);
    if (file && file.content !== expected) return Promise.resolve(false);
    this.files.delete(path);
    return Promise.resolve(true);
  }

  createFolder(): Promise<void> {
    return Promise.resolve();
  }

  remove(path: string): Promise<void> {
    this.files.delete(path);
    return Promise.resolve();
  }

  append(path: string, text: string): Promise<void> {
    try {
      this.files.set(path, { content: this.get(path) + text, mtime: ++this.clock });
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  removeStrayTempFiles(): Promise<StrayFiles> {
    return Promise.resolve(NO_STRAY_FILES);
  }

  /** Everything, for assertions. */
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.files.entries()].map(([p, f]) => [p, f.content]));
  }
}
