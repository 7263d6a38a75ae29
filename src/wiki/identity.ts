/**
 * Page identity (with page-identity.ts, which says when two titles are the same). Every page Synapse writes carries `synapse_id` in its frontmatter; the id, the
 * frontmatter title and the aliases — not the file name or the folder — are how Synapse finds its
 * pages again, so a page the user renamed or moved is updated where it now lives.
 *
 * Today the registry is built by reading the frontmatter of every wiki page once per ingest
 * (`findPagesById`); the retrieval index can later serve the same `PageRegistry` without reading.
 */
import { frontmatterPaths, splitFrontmatter } from "../core/markdown";
import type { VaultPort } from "../vault/vault-port";
import { contentHash } from "../core/content-hash";
import { SynapseError } from "../core/errors";
import { titleKey } from "./page-identity";
import { basenameOf } from "./page-paths";

/** Frontmatter key holding a page's stable id. */
export const ID_KEY = "synapse_id";
/** Frontmatter key that, set to `locked`, forbids Synapse to change the page. */
export const LOCK_KEY = "synapse";

export interface PageRecord {
  readonly path: string;
  /** The page's `synapse_id`, or null for a page Synapse has not written yet (the user's own). */
  readonly id: string | null;
  readonly type: string;
  /** Frontmatter title, else the file name. */
  readonly title: string;
  readonly aliases: readonly string[];
  readonly locked: boolean;
  /** The body, for similarity; pages are small enough to keep for the length of one ingest. */
  readonly body: string;
}

export interface PageRegistry {
  readonly records: readonly PageRecord[];
  byId(id: string): PageRecord | undefined;
}

/**
 * A new page's id, derived from what makes it unique when it is created (type, title, the note it
 * came from, the day), so the same ingest always writes the same bytes and tests can approve them.
 * It never changes afterwards, whatever happens to the title or the file.
 */
export function newPageId(type: string, title: string, sourcePath: string, date: string): string {
  return `sy-${contentHash(`${type}\n${titleKey(title)}\n${sourcePath}\n${date}`)}`;
}

export function recordOf(path: string, text: string): PageRecord {
  const { frontmatter, body } = splitFrontmatter(text);
  const title = typeof frontmatter.title === "string" && frontmatter.title.trim() ? frontmatter.title.trim() : basenameOf(path);
  const id = frontmatter[ID_KEY];
  return {
    path,
    id: typeof id === "string" && id.trim() ? id.trim() : null,
    type: typeof frontmatter.type === "string" ? frontmatter.type : "",
    title,
    aliases: frontmatterPaths(frontmatter.aliases),
    locked: isLocked(frontmatter),
    body,
  };
}

export function isLocked(frontmatter: Record<string, unknown>): boolean {
  const value = frontmatter[LOCK_KEY];
  return typeof value === "string" && value.trim().toLowerCase() === "locked";
}

/** A registry over records already read. When two files share an id (a copied page), the first path wins. */
export function registryOf(records: readonly PageRecord[]): PageRegistry {
  const ids = new Map<string, PageRecord>();
  for (const record of [...records].sort((a, b) => a.path.localeCompare(b.path))) {
    if (record.id && !ids.has(record.id)) ids.set(record.id, record);
  }
  return { records, byId: (id) => ids.get(id) };
}

/**
 * Reads the frontmatter of every wiki page once: the id → path lookup of one ingest. A page whose
 * text is what it was at the last lookup on this vault keeps its record: a folder ingest reads
 * every page per note, and parsing a thousand frontmatters each time was most of its cost.
 */
export async function findPagesById(vault: VaultPort, paths: readonly string[]): Promise<PageRegistry> {
  const records: PageRecord[] = [];
  for (let at = 0; at < paths.length; at += READ_BATCH) {
    const batch = paths.slice(at, at + READ_BATCH);
    // A page that vanished or cannot be read since the listing simply is not a candidate.
    const texts = vault.readMany ? (await vault.readMany(batch)).map((found) => found?.text ?? null) : await Promise.all(batch.map((path) => readText(vault, path).catch(() => null)));
    batch.forEach((path, i) => {
      const text = texts[i];
      if (text !== null && text !== undefined) records.push(recordFrom(vault, path, text));
    });
  }
  forgetOthers(vault, paths);
  return registryOf(records);
}

/** Pages read in one call of the vault's: a batch blocks the CLI's thread for a few milliseconds. */
const READ_BATCH = 256;

/**
 * One file's record, read now; the same record object as at the last read on this vault while its
 * text is the same, so what is derived from a record (its words for similarity, its sections) is
 * derived once, not at every ingest. Throws when the file cannot be read.
 */
export async function readRecord(vault: VaultPort, path: string): Promise<PageRecord> {
  return recordFrom(vault, path, await readText(vault, path));
}

function recordFrom(vault: VaultPort, path: string, text: string): PageRecord {
  const known = knownOn(vault);
  const before = known.get(path);
  if (before?.text === text) return before.record;
  const record = recordOf(path, text);
  known.set(path, { text, record });
  return record;
}

/**
 * A file's text, through the vault's one-call read where it has one: on disk, an asynchronous read
 * is five thread-pool round trips (a realpath, an open, a stat, a read, a close); an ingest that
 * read the wiki's pages so spent most of its time waiting on them.
 */
async function readText(vault: VaultPort, path: string): Promise<string> {
  if (!vault.readWithStat) return vault.read(path);
  const found = await vault.readWithStat(path);
  if (found === null) throw new SynapseError("vault", `"${path}" could not be read.`);
  return found.text;
}

function knownOn(vault: VaultPort): Map<string, ParsedPage> {
  let known = parsedPages.get(vault);
  if (!known) {
    known = new Map();
    parsedPages.set(vault, known);
  }
  return known;
}

/**
 * Files deleted or renamed since leave with the next full lookup of the wiki, so the cache stays
 * near the size of what is read (the wiki's pages and the user's notes beside them).
 */
function forgetOthers(vault: VaultPort, paths: readonly string[]): void {
  const known = knownOn(vault);
  if (known.size <= 2 * paths.length + KEPT_BESIDE) return;
  const current = new Set(paths);
  for (const path of known.keys()) if (!current.has(path)) known.delete(path);
}

/** Records kept beyond twice the wiki's pages: room for the user's notes read beside them. */
const KEPT_BESIDE = 1000;

interface ParsedPage {
  readonly text: string;
  readonly record: PageRecord;
}

const parsedPages = new WeakMap<VaultPort, Map<string, ParsedPage>>();
