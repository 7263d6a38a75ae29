/**
 * VaultPort over Obsidian's own vault API, so every write goes through Obsidian: its file cache,
 * its sync and its undo history see our changes as they see the user's. Files are found by path
 * (`getFileByPath`), never by scanning every file; edits are atomic (`Vault.process`, which Obsidian
 * runs against the file as it is then, between the editor's own saves); removal goes to the trash
 * the user chose (`FileManager.trashFile`); links resolve as Obsidian resolves them.
 */
import { normalizePath, TFile, TFolder, type App } from "obsidian";
import { SynapseError } from "../core/errors";
import { NO_STRAY_FILES, type StrayFiles, type VaultPort, type VaultStat } from "../vault/vault-port";
import { conflictCopyName, isLeftover, MAX_COPIES, settleLeftovers } from "../vault/write-leftovers";

/** Vault-relative path in Obsidian's form; "" for the vault root. */
function clean(path: string): string {
  const normalised = normalizePath(path.replace(/\\/g, "/"));
  return normalised === "/" ? "" : normalised;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "" : path.slice(0, slash);
}

export class ObsidianVault implements VaultPort {
  constructor(private readonly app: App) {}

  async stat(path: string): Promise<VaultStat | null> {
    return this.statOf(path);
  }

  /**
   * Many stats in one call, from Obsidian's file tree as `stat`: a sync checks every indexed note,
   * and to the index's worker each call is a message and its answer, so a warm start stats the
   * vault in a few hundred round trips instead of one per note.
   */
  async statMany(paths: readonly string[]): Promise<(VaultStat | null)[]> {
    return paths.map((path) => this.statOf(path));
  }

  private statOf(path: string): VaultStat | null {
    const file = this.app.vault.getFileByPath(clean(path));
    return file ? { size: file.stat.size, mtime: file.stat.mtime } : null;
  }

  async readBytes(path: string): Promise<Uint8Array> {
    return new Uint8Array(await this.app.vault.readBinary(this.file(path)));
  }

  async read(path: string): Promise<string> {
    return this.app.vault.read(this.file(path));
  }

  async list(folder: string): Promise<string[]> {
    return (await this.listInAnyOrder(folder)).sort();
  }

  /** The walk of `list`, unsorted: sorting 50,000 paths is a long task of this thread; the index's worker sorts them. */
  async listInAnyOrder(folder: string): Promise<string[]> {
    const target = clean(folder);
    const root = target === "" ? this.app.vault.getRoot() : this.app.vault.getFolderByPath(target);
    if (!root) return [];
    const out: string[] = [];
    const walk = (node: TFolder) => {
      for (const child of node.children) {
        if (child instanceof TFolder) walk(child);
        else if (child instanceof TFile && child.extension.toLowerCase() === "md") out.push(child.path);
      }
    };
    walk(root);
    return out;
  }

  async create(path: string, content: string): Promise<void> {
    const target = clean(path);
    if (this.app.vault.getAbstractFileByPath(target)) throw new SynapseError("vault", `"${target}" already exists.`);
    await this.createFolder(parentOf(target));
    try {
      await this.app.vault.create(target, content);
    } catch (error) {
      throw new SynapseError("vault", `Could not create "${target}": ${message(error)}`, { cause: error });
    }
  }

  async process(path: string, update: (current: string) => string): Promise<string> {
    const file = this.file(path);
    return this.app.vault.process(file, update);
  }

  /** The comparison runs inside `Vault.process`, on the text Obsidian is about to replace. */
  async replaceIfUnchanged(path: string, expected: string, next: string | readonly string[]): Promise<boolean> {
    const file = this.app.vault.getFileByPath(clean(path));
    if (!file) return false;
    const content = typeof next === "string" ? next : next.join("");
    let held = false;
    await this.app.vault.process(file, (current) => {
      held = current === expected;
      return held ? content : current;
    });
    return held;
  }

  /**
   * Read, compare and trash with nothing awaited between the comparison and the call that trashes:
   * Obsidian's own saves run on this thread, so none lands in between.
   */
  async removeIfUnchanged(path: string, expected: string): Promise<boolean> {
    const file = this.app.vault.getFileByPath(clean(path));
    if (!file) return true;
    if ((await this.app.vault.read(file)) !== expected) return false;
    await this.app.fileManager.trashFile(file);
    return true;
  }

  async createFolder(path: string): Promise<void> {
    const target = clean(path);
    if (target === "") return;
    let prefix = "";
    for (const segment of target.split("/")) {
      prefix = prefix === "" ? segment : `${prefix}/${segment}`;
      const existing = this.app.vault.getAbstractFileByPath(prefix);
      if (existing instanceof TFolder) continue;
      if (existing) throw new SynapseError("vault", `"${prefix}" is a file, so no folder can be made there.`);
      try {
        await this.app.vault.createFolder(prefix);
      } catch (error) {
        // Another writer (sync, the user) may have made it between the check and the call.
        if (!(this.app.vault.getAbstractFileByPath(prefix) instanceof TFolder)) {
          throw new SynapseError("vault", `Could not create the folder "${prefix}": ${message(error)}`, { cause: error });
        }
      }
    }
  }

  async remove(path: string): Promise<void> {
    const file = this.app.vault.getAbstractFileByPath(clean(path));
    if (file) await this.app.fileManager.trashFile(file);
  }

  async append(path: string, text: string): Promise<void> {
    await this.app.vault.append(this.file(path), text);
  }

  /**
   * What a killed CLI (NodeVault) left in the folder, settled as the CLI settles it (see
   * `write-leftovers.ts`); Obsidian's own writes leave nothing. Leftovers are not notes: a
   * temporary file, or a set-aside copy equal to the file at its path, is removed outright rather
   * than sent to the trash.
   */
  async removeStrayTempFiles(folder: string): Promise<StrayFiles> {
    const target = clean(folder);
    const root = target === "" ? this.app.vault.getRoot() : this.app.vault.getFolderByPath(target);
    if (!root) return NO_STRAY_FILES;
    const found: string[] = [];
    const walk = (node: TFolder) => {
      for (const child of node.children) {
        if (child instanceof TFolder) walk(child);
        else if (child instanceof TFile && isLeftover(child.name)) found.push(child.path);
      }
    };
    walk(root);
    const { adapter } = this.app.vault;
    const taken = async (path: string) => this.app.vault.getAbstractFileByPath(path) !== null || (await adapter.exists(path));
    return settleLeftovers(
      {
        remove: (path) => adapter.remove(path),
        moveIfFree: async (path, to) => {
          if (await taken(to)) return false;
          await this.app.vault.rename(this.file(path), to);
          return true;
        },
        // Guarded writes replace only the text pages Synapse writes: compared as text.
        sameContent: async (a, b) => (await this.app.vault.read(this.file(a))) === (await this.app.vault.read(this.file(b))),
        keepAsCopy: async (path, to) => {
          const slash = to.lastIndexOf("/");
          for (let n = 1; n <= MAX_COPIES; n++) {
            const copy = `${slash === -1 ? "" : to.slice(0, slash + 1)}${conflictCopyName(to.slice(slash + 1), n)}`;
            if (await taken(copy)) continue;
            await this.app.vault.rename(this.file(path), copy);
            return copy;
          }
          throw new SynapseError("vault", `No free name is left beside "${to}" for a copy of it; it is kept as "${path}".`);
        },
        name: (path) => path,
      },
      found.sort(),
    );
  }

  /**
   * Does a wikilink to this name lead somewhere, as Obsidian resolves it (any folder, aliases of
   * case, `.md` optional)? The metadata cache answers without reading files.
   */
  linkExists(basename: string, sourcePath = ""): boolean {
    return this.app.metadataCache.getFirstLinkpathDest(basename, sourcePath) !== null;
  }

  /**
   * Edits a note's frontmatter through Obsidian's own YAML handling, atomically. Not part of
   * VaultPort: the core writes whole pages; this is for plugin-side bookkeeping on existing notes.
   */
  async updateFrontmatter(path: string, edit: (frontmatter: Record<string, unknown>) => void): Promise<void> {
    await this.app.fileManager.processFrontMatter(this.file(path), (frontmatter: Record<string, unknown>) => edit(frontmatter));
  }

  private file(path: string): TFile {
    const target = clean(path);
    const found = this.app.vault.getFileByPath(target);
    if (found) return found;
    const folder = this.app.vault.getFolderByPath(target);
    throw new SynapseError("vault", folder ? `"${target}" is a folder, not a note.` : `"${target}" does not exist.`);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
