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
  const known = parsedPages.get(vault) ?? new Map<string, ParsedPage>();
  parsedPages.set(vault, known);
  const records: PageRecord[] = [];
  for (const path of paths) {
    // A page that vanished or cannot be read since the listing simply is not a candidate.
    let text: string;
    try {
      text = await vault.read(path);
    } catch {
      continue;
    }
    const before = known.get(path);
    const parsed = before?.text === text ? before : { text, record: recordOf(path, text) };
    known.set(path, parsed);
    records.push(parsed.record);
  }
  // Pages deleted or renamed since leave with the next full lookup: the cache stays near the wiki's size.
  if (known.size > 2 * paths.length + 1000) {
    const current = new Set(paths);
    for (const path of known.keys()) if (!current.has(path)) known.delete(path);
  }
  return registryOf(records);
}

interface ParsedPage {
  readonly text: string;
  readonly record: PageRecord;
}

const parsedPages = new WeakMap<VaultPort, Map<string, ParsedPage>>();
