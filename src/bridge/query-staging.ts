/**
 * The staging copy for a question: the wiki's pages and the notes the question may read, copied
 * into a fresh temporary folder with the vault's layout. The agent reads there and nowhere else;
 * nothing is collected afterwards, since a question writes nothing. Excluded folders are never
 * copied, nor are wiki pages drawn from notes in them, whatever the scope says. Every file goes in
 * without Synapse's source markers and attribution lines: the agent is a model, and those are
 * bookkeeping, not what the pages say.
 */
import { Buffer } from "node:buffer";
import { lstat, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ParsedQueryRequest } from "../core/bridge-protocol";
import { frontmatterPaths, splitFrontmatter } from "../core/markdown";
import { isExcluded, isShareablePage } from "../core/perimeter";
import { stripPageProvenance } from "../core/provenance-strip";
import { normaliseVaultPath } from "../core/sources";
import { nameKey } from "../core/unicode";
import { isInFolder } from "../wiki/read-note";
import { DEFAULT_STAGING_LIMITS, isInside, listMarkdown, place, readBounded, StagingError, type StagingLimits } from "./staging";

export interface QueryStaging {
  /** Real path of the staging folder (the agent's cwd). */
  readonly root: string;
  /** Vault-relative paths of what was copied, wiki pages first. */
  readonly files: readonly string[];
  dispose(): Promise<void>;
}

export interface QueryStagingRequest {
  /** Real path of a vault the bridge serves. */
  readonly vaultRoot: string;
  readonly wikiFolder: string;
  readonly excludedFolders: readonly string[];
  readonly notes: ParsedQueryRequest["notes"];
}

/** A real folder of the vault (not a symbolic link, not outside it), or null when there is none. */
async function realFolder(vaultRoot: string, folder: string): Promise<string | null> {
  const onDisk = join(vaultRoot, ...folder.split("/"));
  const info = await lstat(onDisk).catch(() => null);
  if (!info) return null;
  if (info.isSymbolicLink() || !isInside(vaultRoot, await realpath(onDisk))) {
    throw new StagingError("outside_vault", `"${folder}" is a symbolic link or lies outside the vault; the bridge only stages real folders.`);
  }
  return info.isDirectory() ? onDisk : null;
}

function pathKey(path: string): string {
  return nameKey(normaliseVaultPath(path));
}

async function notePaths(request: QueryStagingRequest, limits: StagingLimits): Promise<string[]> {
  const { vaultRoot, wikiFolder, notes } = request;
  if (notes === "none") return [];
  const inWiki = (p: string) => p.startsWith(`${wikiFolder}/`);
  if (notes === "all") return (await listMarkdown(vaultRoot, vaultRoot, limits)).filter((p) => !inWiki(p));
  const out = new Set<string>();
  for (const folder of notes.folders) {
    const onDisk = await realFolder(vaultRoot, folder);
    if (!onDisk) throw new StagingError("folder_not_found", `The folder "${folder}" does not exist in the vault.`);
    for (const path of await listMarkdown(vaultRoot, onDisk, limits)) if (!inWiki(path)) out.add(path);
  }
  return [...out].sort();
}

export async function createQueryStaging(
  request: QueryStagingRequest,
  limits: StagingLimits = DEFAULT_STAGING_LIMITS,
  parent: string = tmpdir(),
): Promise<QueryStaging> {
  const { vaultRoot, wikiFolder, excludedFolders } = request;
  const wikiOnDisk = await realFolder(vaultRoot, wikiFolder);
  if (!wikiOnDisk) throw new StagingError("folder_not_found", `There is no wiki yet in "${wikiFolder}"; ingest a note first, then ask.`);

  const copied = new Map<string, string>();
  let bytes = 0;
  const add = (path: string, content: string) => {
    bytes += Buffer.byteLength(content);
    if (bytes > limits.maxBytes || copied.size >= limits.maxFiles) {
      throw new StagingError("too_large", `The wiki and the notes in scope hold more than ${limits.maxFiles} files or ${limits.maxBytes} bytes; the bridge will not stage them. Narrow the scope.`);
    }
    copied.set(path, stripPageProvenance(content));
  };
  // A page drawn from a note in an excluded folder carries its words: the agent does not see it.
  const shareable = (content: string) => isShareablePage(frontmatterPaths(splitFrontmatter(content).frontmatter.sources), excludedFolders);
  const wikiPages = await listMarkdown(vaultRoot, wikiOnDisk, limits);
  for (const path of wikiPages) {
    if (isExcluded(path, excludedFolders)) continue;
    const content = await readBounded(join(vaultRoot, ...path.split("/")), limits);
    if (shareable(content)) add(path, content);
  }
  // On a case-insensitive disk the setting "wiki" finds the folder "Wiki", and listing the notes
  // spells its pages "Wiki/…": compared as the perimeter compares folders, they are still wiki pages.
  const wikiKeys = new Set(wikiPages.map(pathKey));
  for (const path of await notePaths(request, limits)) {
    if (isExcluded(path, excludedFolders) || wikiKeys.has(pathKey(path))) continue;
    const content = await readBounded(join(vaultRoot, ...path.split("/")), limits);
    if (isInFolder(path, wikiFolder) && !shareable(content)) continue;
    add(path, content);
  }

  const root = await realpath(await mkdtemp(join(parent, "synapse-query-")));
  try {
    for (const [path, content] of copied) await place(root, path, content);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return { root, files: [...copied.keys()], dispose: () => rm(root, { recursive: true, force: true }) };
}
