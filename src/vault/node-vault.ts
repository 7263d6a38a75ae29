/**
 * VaultPort over the file system, for the CLI, the bridge and tests. Every path is resolved inside
 * the vault root (no `..`, no absolute paths, no symlink escapes), and every write goes to a
 * temporary file first and is linked into place, so a crash never leaves half a file; a file is
 * replaced or removed only if it holds what the caller expects when it goes (node-guarded-write.ts).
 */
import { randomBytes } from "node:crypto";
import { lstatSync, realpathSync } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { SynapseError } from "../core/errors";
import { errorCode, nodeFsOps, type NodeFsOps } from "./node-fs-ops";
import { CAN_OPEN_UNLINKED, openNote, readOpened, readUnlinked, type NoteRead } from "./node-note-read";
import { holdsText, removeGuarded, replaceGuarded, settleLeftovers, type GuardedOutcome } from "./node-guarded-write";
import { isLeftover, TEMP_SUFFIX } from "./write-leftovers";
import type { StrayFiles, VaultPort, VaultStat } from "./vault-port";

/**
 * Folders never walked. Obsidian leaves every file and folder whose name starts with "." out of
 * the vault (".obsidian", ".trash", ".git", a sync tool's ".stversions", Synapse's own state inside
 * ".obsidian"), so the CLI does too and both index the same notes; node_modules as well.
 */
const SKIPPED_DIRS = new Set(["node_modules"]);
const hidden = (name: string) => name.startsWith(".");
/** How often `process` computes its change again when the file was saved meanwhile. */
const PROCESS_ATTEMPTS = 3;

export interface NodeVaultOptions {
  /** The file-system calls reads and writes are made of (tests run code between them). */
  readonly fs?: NodeFsOps;
}

export class NodeVault implements VaultPort {
  readonly root: string;
  private readonly fs: NodeFsOps;

  constructor(root: string, options: NodeVaultOptions = {}) {
    this.root = resolve(root);
    this.fs = options.fs ?? nodeFsOps;
  }

  /** The vault path of an absolute path inside the root, as errors name it. */
  private readonly vaultPathOf = (full: string): string => relative(this.root, full).split(sep).join("/");

  /** Absolute path for a vault path; refuses anything that would leave the vault. */
  resolvePath(path: string): string {
    // Vault paths separate folders with "/"; a backslash is one only on Windows, and elsewhere a
    // character a file name may hold (back\slash.md).
    const clean = (sep === "\\" ? path.replace(/\\/g, "/") : path).replace(/^\/+/, "");
    const full = resolve(this.root, clean);
    const rel = relative(this.root, full);
    if (rel.startsWith("..") || resolve(this.root, rel) !== full || (rel === "" && clean !== "")) {
      throw new SynapseError("vault", `"${path}" is outside the vault.`);
    }
    return full;
  }

  private rootReal: Promise<string> | null = null;

  /** Follows symlinks of the deepest existing ancestor and checks it is still inside the vault. */
  private async confined(path: string): Promise<string> {
    const full = this.resolvePath(path);
    this.rootReal ??= realpath(this.root);
    const rootReal = await this.rootReal;
    for (const probe of selfAndAncestors(full)) {
      const real = await realpath(probe).catch(() => null);
      if (real !== null) return insideOrThrow(real, rootReal, path, full);
    }
    return full;
  }

  private rootRealSync: string | null = null;

  /** `confined` without a promise per step: the same rule, for `readWithStat`. */
  private confinedSync(path: string): string {
    const full = this.resolvePath(path);
    // The native realpath, as the asynchronous one is: Node's own JS version lstats every component.
    this.rootRealSync ??= realpathSync.native(this.root);
    for (const probe of selfAndAncestors(full)) {
      let real: string;
      try {
        real = realpathSync.native(probe);
      } catch {
        continue;
      }
      return insideOrThrow(real, this.rootRealSync, path, full);
    }
    return full;
  }

  /**
   * The text and the stat of one open file, so the two always agree. Synchronous inside: an index
   * build reads every note of the vault, and the promise round trips of an asynchronous realpath,
   * open, stat, read and close cost about three times the CPU of the same calls made synchronously
   * (measured on the corpus's notes); one note blocks for well under a millisecond.
   */
  async readWithStat(path: string): Promise<{ stat: VaultStat; text: string } | null> {
    let full: string;
    try {
      full = this.confinedSync(path);
    } catch (error) {
      if (SynapseError.isInstance(error)) throw error;
      return null;
    }
    let fd: number;
    try {
      fd = openNote(full, false);
    } catch {
      return null;
    }
    return readOpened(fd);
  }

  /**
   * Many files' texts, in order, as `readWithStat` gives each — but each folder's real path is
   * checked once and a file is opened without following a link (one realpath per file was half the
   * cost of reading a wiki's pages). A file that is a link itself, or any file where the system has
   * no such open (Windows), takes `readWithStat`'s own path, which follows and confines it. A path
   * outside the vault, or a link leading out, is null like a file gone: one such path never fails
   * the batch.
   */
  async readMany(paths: readonly string[]): Promise<(NoteRead | null)[]> {
    /** Each folder's real path when it is inside the vault, else null. */
    const folders = new Map<string, string | null>();
    /** By folder: the positions of the files read there without the careful path. */
    const readIn = new Map<string, number[]>();
    const out: (NoteRead | null)[] = [];
    for (const [at, path] of paths.entries()) {
      let full: string;
      try {
        full = this.resolvePath(path);
      } catch {
        out.push(null);
        continue;
      }
      const folder = dirname(full);
      let real = folders.get(folder);
      if (real === undefined) {
        real = CAN_OPEN_UNLINKED ? this.folderReal(folder) : null;
        folders.set(folder, real);
      }
      const found = real !== null ? readUnlinked(full) : "follow";
      if (found !== "follow") {
        const positions = readIn.get(folder);
        if (positions) positions.push(at);
        else readIn.set(folder, [at]);
      }
      out.push(found === "follow" ? await this.readWithStat(path).catch(() => null) : found);
    }
    // A folder replaced by a link while its files were read: what was read there is read again the careful way.
    for (const [folder, positions] of readIn) {
      if (this.folderReal(folder) === folders.get(folder)) continue;
      for (const at of positions) out[at] = await this.readWithStat(paths[at] as string).catch(() => null);
    }
    return out;
  }

  async realPath(path: string): Promise<string> {
    const full = await this.confined(path);
    this.rootReal ??= realpath(this.root);
    const real = await realpath(full).catch(() => full);
    return relative(await this.rootReal, real).split(sep).join("/");
  }

  /**
   * The stats of many notes, in order, as `stat` gives each. A sync checks every note the index
   * knows, and one `stat` costs a realpath and a stat, each a promise round trip through the
   * thread pool, for one small answer; here each folder's real path is checked once and every
   * note gets one synchronous lstat (a batch of a few hundred blocks for a few milliseconds). A
   * note that is a link itself, or not a plain file, or not there, takes `stat`'s own path.
   */
  async statMany(paths: readonly string[]): Promise<(VaultStat | null)[]> {
    const folderInside = new Map<string, boolean>();
    const out: (VaultStat | null)[] = [];
    for (const path of paths) {
      const full = this.resolvePath(path);
      const folder = dirname(full);
      let inside = folderInside.get(folder);
      if (inside === undefined) {
        inside = this.folderInside(folder);
        folderInside.set(folder, inside);
      }
      const s = inside ? lstatSync(full, { throwIfNoEntry: false }) : undefined;
      out.push(s?.isFile() ? { size: s.size, mtime: s.mtimeMs } : await this.stat(path));
    }
    return out;
  }

  /** Whether a folder exists and its real path is inside the vault. */
  private folderInside(folder: string): boolean {
    return this.folderReal(folder) !== null;
  }

  /** A folder's real path when it exists inside the vault, else null. */
  private folderReal(folder: string): string | null {
    this.rootRealSync ??= realpathSync.native(this.root);
    try {
      const real = realpathSync.native(folder);
      return real === this.rootRealSync || real.startsWith(this.rootRealSync + sep) ? real : null;
    } catch {
      return null;
    }
  }

  async stat(path: string): Promise<VaultStat | null> {
    try {
      const s = await stat(await this.confined(path));
      return s.isFile() ? { size: s.size, mtime: s.mtimeMs } : null;
    } catch (error) {
      if (SynapseError.isInstance(error)) throw error;
      return null;
    }
  }

  async readBytes(path: string): Promise<Uint8Array> {
    return new Uint8Array(await this.fs.readFile(await this.confined(path)));
  }

  /**
   * Decoded in one piece: `readFile(path, "utf8")` decodes a big file (index.md) chunk by chunk into
   * a string made of parts, which the first search of it then copies whole into one.
   */
  async read(path: string): Promise<string> {
    return (await this.fs.readFile(await this.confined(path))).toString("utf8");
  }

  async list(folder: string): Promise<string[]> {
    const out: string[] = [];
    // Vault paths are built as the walk goes down (`rel`, with "/"), not by path.relative per note:
    // a warm CLI command lists every note of the vault before it checks them.
    const walk = async (dir: string, rel: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      const subfolders: Promise<void>[] = [];
      const prefix = rel === "" ? "" : `${rel}/`;
      for (const entry of entries) {
        if (hidden(entry.name)) continue;
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name)) subfolders.push(walk(join(dir, entry.name), prefix + entry.name));
        } else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
          out.push(prefix + entry.name);
        }
      }
      await Promise.all(subfolders);
    };
    const start = await this.confined(folder);
    await walk(start, relative(this.root, start).split(sep).join("/"));
    return out.sort();
  }

  async create(path: string, content: string): Promise<void> {
    const full = await this.confined(path);
    await this.fs.mkdir(dirname(full));
    const temp = `${full}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
    try {
      await this.fs.writeFile(temp, content);
      // link() fails if the target exists: the file appears whole, and never over another.
      await this.fs.link(temp, full);
    } catch (error) {
      if (errorCode(error) === "EEXIST") throw new SynapseError("vault", `"${path}" already exists.`);
      throw error;
    } finally {
      await this.fs.rm(temp);
    }
  }

  /**
   * Read, update, and a guarded replace: a save that lands between the read and the replace is
   * never overwritten; the update is computed again from it (a few times at most).
   */
  async process(path: string, update: (current: string) => string): Promise<string> {
    const full = await this.confined(path);
    for (let attempt = 0; attempt < PROCESS_ATTEMPTS; attempt++) {
      const current = (await this.fs.readFile(full)).toString("utf8");
      const next = update(current);
      // Bytes that would not change are not rewritten (no new mtime, no sync, no file event).
      if (next === current) return next;
      const outcome = await replaceGuarded(this.fs, full, holdsText(current), next, this.vaultPathOf);
      if (outcome === "done") return next;
      if (outcome === "gone") throw new SynapseError("vault", `"${path}" does not exist.`);
    }
    throw new SynapseError("vault", `"${path}" kept changing while Synapse was updating it; nothing was written.`);
  }

  /**
   * The file's bytes compared with `expected` encoded, which costs a fraction of decoding them; only
   * bytes that differ are decoded, so that a file whose bytes are not valid UTF-8 is judged as
   * `process` judges it, by its text. Compared once the file is set aside (node-guarded-write.ts).
   */
  async replaceIfUnchanged(path: string, expected: string, next: string | readonly string[]): Promise<boolean> {
    const full = await this.confined(path);
    const same = typeof next === "string" ? next === expected : piecesEqual(next, expected);
    // Nothing to write: the answer is whether the file holds it now, and no file moves.
    if (same) return (await this.fs.isFile(full)) && holdsText(expected)(await this.fs.readFile(full));
    // Pieces are encoded one by one and written as bytes: never joined into one string (at 1.3 MB of
    // text in several scripts, the join costs several times their encoding).
    const content = typeof next === "string" ? next : Buffer.concat(next.map((piece) => Buffer.from(piece, "utf8")));
    return done(await replaceGuarded(this.fs, full, holdsText(expected), content, this.vaultPathOf));
  }

  async removeIfUnchanged(path: string, expected: string): Promise<boolean> {
    const outcome = await removeGuarded(this.fs, await this.confined(path), holdsText(expected), this.vaultPathOf);
    return outcome !== "changed";
  }

  async createFolder(path: string): Promise<void> {
    await this.fs.mkdir(await this.confined(path));
  }

  async remove(path: string): Promise<void> {
    await this.fs.rm(await this.confined(path));
  }

  async append(path: string, text: string): Promise<void> {
    const full = await this.confined(path);
    if (!(await this.fs.isFile(full))) throw new SynapseError("vault", `"${path}" does not exist.`);
    await this.fs.appendFile(full, text);
  }

  async removeStrayTempFiles(folder: string): Promise<StrayFiles> {
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name) && !hidden(entry.name)) await walk(full);
        } else if (isLeftover(entry.name)) {
          found.push(full);
        }
      }
    };
    await walk(await this.confined(folder));
    const report = await settleLeftovers(this.fs, found.sort(), this.vaultPathOf);
    return { removed: [...report.removed].sort(), restored: [...report.restored].sort(), keptAs: [...report.keptAs].sort() };
  }
}

function done(outcome: GuardedOutcome): boolean {
  return outcome === "done";
}

/** A path, then each folder above it up to the file system's root. */
function* selfAndAncestors(full: string): Generator<string> {
  for (let probe = full; ; probe = dirname(probe)) {
    yield probe;
    if (dirname(probe) === probe) return;
  }
}

/** `full` when its deepest existing ancestor resolves (`real`) inside the vault; else the link escapes. */
function insideOrThrow(real: string, rootReal: string, path: string, full: string): string {
  if (real !== rootReal && !real.startsWith(rootReal + sep)) throw new SynapseError("vault", `"${path}" leads outside the vault through a link.`);
  return full;
}

/** Whether `pieces` put together are `text`, compared in place. */
function piecesEqual(pieces: readonly string[], text: string): boolean {
  let at = 0;
  for (const piece of pieces) {
    if (!text.startsWith(piece, at)) return false;
    at += piece.length;
  }
  return at === text.length;
}
