/**
 * index.md follows the pages the user renames, moves or deletes — reported by Obsidian, or found on
 * disk before the CLI's next command. A line of a page that is gone goes (what the user wrote
 * after its link stays), a renamed page's line points at its new path in place, and a page in a
 * type folder that no line lists gets one (`reconcileIndex`). It is one small run of the write path
 * ("index" in the history), so a crash leaves index.md whole and undo can take it back; when
 * index.md is already in step nothing is written and no run is recorded.
 */
import type { VaultPort } from "../vault/vault-port";
import { applyPlan, type ApplyResult, type WriteContext } from "../write/apply";
import { splitFrontmatter } from "../core/markdown";
import { editIndex, indexPath, logPath, type IndexEdit, type IndexEntry } from "../write/index-log";
import { reconcileIndex } from "../write/index-reconcile";

export interface KnownPageChanges {
  /** Pages renamed or moved, as Obsidian reported them (vault paths, `.md`). */
  readonly moves?: readonly { readonly from: string; readonly to: string }[];
  /** Pages deleted. */
  readonly removed?: readonly string[];
}

/** The edit that brings index.md in step with these pages; empty when it is. */
export function followEdit(current: string, pages: readonly string[], wikiFolder: string, known: KnownPageChanges = {}): IndexEdit {
  const existing = new Set(pages.map((p) => p.toLowerCase()));
  // A move is followed only when its page is still where it went (a later event may have moved it on).
  const moves = (known.moves ?? []).filter((m) => existing.has(m.to.toLowerCase()) && !existing.has(m.from.toLowerCase()));
  return reconcileIndex(current, pages, wikiFolder, { move: moves, remove: (known.removed ?? []).filter((p) => !existing.has(p.toLowerCase())) });
}

/** The entry of a page by its frontmatter (title, type), falling back to what the folder and file name say. */
async function entryFromPage(vault: VaultPort, entry: IndexEntry): Promise<IndexEntry> {
  const { frontmatter, frontmatterInvalid } = splitFrontmatter(await vault.read(entry.path).catch(() => ""));
  if (frontmatterInvalid) return entry;
  const title = typeof frontmatter.title === "string" && frontmatter.title.trim() ? frontmatter.title : entry.title;
  const type = typeof frontmatter.type === "string" && frontmatter.type.trim() ? frontmatter.type : entry.type;
  return { path: entry.path, type, title };
}

export async function followPages(vault: VaultPort, write: WriteContext, wikiFolder: string, known: KnownPageChanges = {}, now?: () => number): Promise<ApplyResult | null> {
  const path = indexPath(wikiFolder);
  if (!(await vault.stat(path))) return null;
  const bookkeeping = new Set([path, logPath(wikiFolder)]);
  const pages = (await vault.list(wikiFolder)).filter((p) => !bookkeeping.has(p));
  const found = followEdit(await vault.read(path), pages, wikiFolder, known);
  // A page listed afresh is listed as a rebuild would list it: by its title, in its type's section.
  const upsert: IndexEntry[] = [];
  for (const entry of found.upsert ?? []) upsert.push(await entryFromPage(vault, entry));
  const edit: IndexEdit = { ...found, upsert };
  if ((edit.move?.length ?? 0) + (edit.remove?.length ?? 0) + (edit.upsert?.length ?? 0) === 0) return null;
  const change = {
    path,
    type: "index",
    title: "Wiki index",
    action: "updated" as const,
    // Recomputed under the lock from index.md and the pages as they are then.
    update: (current: string) => {
      const next = editIndex(current, edit);
      return { content: next, action: next === current ? ("unchanged" as const) : ("updated" as const) };
    },
  };
  return applyPlan(vault, [change], { ...write, operation: "index", label: "pages renamed or deleted", wikiFolder, maintainIndex: false, ...(now ? { now } : {}) });
}
