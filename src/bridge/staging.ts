/**
 * The staging copy: the agent never runs in the vault. The wiki folder's Markdown files and the
 * source note are copied into a fresh temporary folder with the vault's layout, the agent works
 * there, and afterwards the copy is compared with what was put in to find the pages it wrote.
 * Nothing here ever writes to the vault.
 *
 * The agent is a model, so what it reads holds none of Synapse's bookkeeping: every staged file
 * goes in without its source markers and attribution lines (provenance-strip.ts). Nothing needs
 * mapping back here: a page the agent returns is material from the note being ingested, and the
 * write path's merge (wiki/ingest/triage.ts) files what is new in it as that note's section, keeps every
 * other section and the user's text as they are on disk, and drops what the page already says
 * (docs/decisions/0011-agent-reads-pages-without-markers.md).
 */
import { frontmatterPaths, splitFrontmatter } from "../core/markdown";
import { isExcluded, isShareablePage } from "../core/perimeter";
import { stripPageProvenance } from "../core/provenance-strip";
import { Buffer } from "node:buffer";
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { BridgePage } from "../core/bridge-protocol";
import { parsePageMarkdown } from "../wiki/page-markdown";

export interface StagingLimits {
  /** Markdown files copied from the wiki folder. */
  readonly maxFiles: number;
  /** Bytes copied in total. */
  readonly maxBytes: number;
  /** Bytes of any one file (the note included). */
  readonly maxFileBytes: number;
}

export const DEFAULT_STAGING_LIMITS: StagingLimits = { maxFiles: 5000, maxBytes: 64 * 1024 * 1024, maxFileBytes: 2 * 1024 * 1024 };

/** A request the bridge cannot stage; the message says why in words. */
export class StagingError extends Error {
  constructor(
    readonly code: "note_not_found" | "folder_not_found" | "not_a_note" | "outside_vault" | "too_large" | "excluded",
    message: string,
  ) {
    super(message);
    this.name = "StagingError";
  }
}

export interface Staging {
  /** Real path of the staging folder (the agent's cwd). */
  readonly root: string;
  /** Real path of the staged wiki folder. */
  readonly wikiRoot: string;
  readonly wikiFolder: string;
  readonly notePath: string;
  /** What was put in from the vault (bookkeeping taken out), by vault-relative path. */
  readonly baseline: ReadonlyMap<string, string>;
  dispose(): Promise<void>;
}

export interface StagingRequest {
  /** Real path of a vault the bridge serves. */
  readonly vaultRoot: string;
  readonly notePath: string;
  readonly wikiFolder: string;
  /** Never staged: the agent cannot read what is not in its copy. */
  readonly excludedFolders: readonly string[];
  readonly previousPages: readonly { readonly path: string; readonly content: string }[];
}

export function toPosix(p: string): string {
  return p.split(sep).join("/");
}

export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Markdown files below `folder` (no symlinks, no dot folders), vault-relative. */
export async function listMarkdown(vaultRoot: string, folder: string, limits: StagingLimits): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
        out.push(toPosix(relative(vaultRoot, full)));
        if (out.length > limits.maxFiles) {
          throw new StagingError("too_large", `The wiki folder has more than ${limits.maxFiles} notes; the bridge will not stage it.`);
        }
      }
    }
  };
  await walk(folder);
  return out.sort();
}

export async function readBounded(path: string, limits: StagingLimits): Promise<string> {
  const info = await lstat(path);
  if (info.size > limits.maxFileBytes) {
    throw new StagingError("too_large", `${path} is larger than ${limits.maxFileBytes} bytes; the bridge will not stage it.`);
  }
  return readFile(path, "utf8");
}

export async function place(root: string, vaultPath: string, content: string): Promise<void> {
  const target = join(root, ...vaultPath.split("/"));
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, content, "utf8");
}

export async function createStaging(
  request: StagingRequest,
  limits: StagingLimits = DEFAULT_STAGING_LIMITS,
  parent: string = tmpdir(),
): Promise<Staging> {
  const { vaultRoot, notePath, wikiFolder, excludedFolders } = request;
  if (isExcluded(notePath, excludedFolders)) {
    throw new StagingError("excluded", `"${notePath}" is in an excluded folder; it is never sent to the agent.`);
  }
  const notePathOnDisk = join(vaultRoot, ...notePath.split("/"));
  const noteInfo = await lstat(notePathOnDisk).catch(() => null);
  if (!noteInfo) throw new StagingError("note_not_found", `The note "${notePath}" does not exist in the vault.`);
  if (!noteInfo.isFile()) throw new StagingError("not_a_note", `"${notePath}" is not a regular file (symbolic links are not followed).`);
  if (!isInside(vaultRoot, await realpath(notePathOnDisk))) {
    throw new StagingError("outside_vault", `"${notePath}" resolves to a place outside the vault.`);
  }
  const wikiOnDisk = join(vaultRoot, ...wikiFolder.split("/"));
  const wikiInfo = await lstat(wikiOnDisk).catch(() => null);
  if (wikiInfo?.isSymbolicLink()) {
    throw new StagingError("outside_vault", `The wiki folder "${wikiFolder}" is a symbolic link; the bridge only stages real folders.`);
  }

  const baseline = new Map<string, string>();
  let bytes = 0;
  const add = (path: string, content: string) => {
    bytes += Buffer.byteLength(content);
    if (bytes > limits.maxBytes) {
      throw new StagingError("too_large", `The wiki folder holds more than ${limits.maxBytes} bytes of notes; the bridge will not stage it.`);
    }
    baseline.set(path, stripPageProvenance(content));
  };
  const listed = wikiInfo?.isDirectory() ? await listMarkdown(vaultRoot, wikiOnDisk, limits) : [];
  const pages = listed.filter((path) => !isExcluded(path, excludedFolders));
  for (const path of pages) {
    const content = await readBounded(join(vaultRoot, ...path.split("/")), limits);
    // A page drawn from a note in an excluded folder carries its words: the agent does not see it.
    if (isShareablePage(frontmatterPaths(splitFrontmatter(content).frontmatter.sources), excludedFolders)) add(path, content);
  }
  if (!baseline.has(notePath)) add(notePath, await readBounded(notePathOnDisk, limits));

  const root = await realpath(await mkdtemp(join(parent, "synapse-staging-")));
  try {
    for (const [path, content] of baseline) await place(root, path, content);
    await mkdir(join(root, ...wikiFolder.split("/")), { recursive: true });
    // A repair round starts from the pages the previous attempt returned.
    for (const page of request.previousPages) {
      if (!page.path.startsWith(`${wikiFolder}/`) || !page.path.toLowerCase().endsWith(".md")) continue;
      await place(root, page.path, stripPageProvenance(page.content));
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    root,
    wikiRoot: join(root, ...wikiFolder.split("/")),
    wikiFolder,
    notePath,
    baseline,
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

export interface StagingChanges {
  readonly pages: BridgePage[];
  /** Files written outside the wiki folder (or not Markdown): reported, never returned. */
  readonly ignored: string[];
}

/** Compares the staging folder with its baseline: the pages the agent created or changed. */
export async function collectChanges(staging: Staging, limits: StagingLimits = DEFAULT_STAGING_LIMITS): Promise<StagingChanges> {
  const pages: BridgePage[] = [];
  const ignored: string[] = [];
  let seen = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const path = toPosix(relative(staging.root, full));
      if (entry.isDirectory()) {
        await walk(full);
        continue;
      }
      if (++seen > limits.maxFiles * 2) return;
      const inWiki = path.startsWith(`${staging.wikiFolder}/`) && path.toLowerCase().endsWith(".md");
      if (!entry.isFile() || !inWiki) {
        const before = staging.baseline.get(path);
        const now = entry.isFile() ? await readFile(full, "utf8").catch(() => null) : null;
        if (before === undefined || before !== now) ignored.push(path);
        continue;
      }
      const info = await lstat(full);
      if (info.size > limits.maxFileBytes) {
        ignored.push(path);
        continue;
      }
      const markdown = await readFile(full, "utf8");
      const before = staging.baseline.get(path);
      if (before === markdown) continue;
      pages.push({ path, action: before === undefined ? "created" : "changed", page: parsePageMarkdown(markdown, path), markdown });
    }
  };
  await walk(staging.root);
  pages.sort((a, b) => a.path.localeCompare(b.path));
  return { pages, ignored: ignored.sort() };
}
