/**
 * How index.md differs from the wiki, entry by entry: the pages no link of it leads to, and the
 * entries (`- [[target|Title]]` lines) whose target is gone. Lint's index finding names both, and
 * its fix adds exactly the missing pages and removes exactly the dangling entries — recomputed
 * from index.md as it is when the fix is applied — so the user's own lines stay as they are.
 */
import { ENTRY } from "../write/index-entry";
import { linksOutsideCode, type PageRecord } from "./snapshot";

export interface IndexDrift {
  /** Pages of the wiki that no link in index.md leads to. */
  readonly missing: readonly PageRecord[];
  /** Entry targets as written (`wiki/concepts/Gone`) that lead to no file. */
  readonly dangling: readonly string[];
}

/** The targets of index.md's entry lines, in order, each once. */
export function entryTargets(indexText: string): string[] {
  const out = new Set<string>();
  for (const line of indexText.replace(/\r\n/g, "\n").split("\n")) {
    const target = ENTRY.exec(line)?.[2]?.trim();
    if (target) out.add(target);
  }
  return [...out];
}

/** The files index.md's links lead to (`resolve`: the file a link target leads to now, or null). */
export function indexedFiles(indexText: string, resolve: (target: string) => string | null): Set<string> {
  const reached = new Set<string>();
  for (const target of linksOutsideCode(indexText)) {
    const path = resolve(target);
    if (path !== null) reached.add(path);
  }
  return reached;
}

/**
 * `resolve`: the file a link target leads to now, or null. `reached`: indexedFiles of the same
 * text and resolver, when the caller has it already (lint's orphan check needs it too).
 */
export function indexDrift(indexText: string, pages: readonly PageRecord[], resolve: (target: string) => string | null, reached: ReadonlySet<string> = indexedFiles(indexText, resolve)): IndexDrift {
  return { missing: pages.filter((p) => !reached.has(p.path)), dangling: entryTargets(indexText).filter((t) => resolve(t) === null) };
}

/** The finding's sentence: every missing page and every dangling entry, by name. */
export function describeDrift(drift: IndexDrift, name: (path: string) => string = (path) => path): string {
  const parts: string[] = [];
  if (drift.missing.length > 0) parts.push(`it does not list ${drift.missing.map((p) => name(p.path)).join(", ")}`);
  if (drift.dangling.length > 0) parts.push(`${drift.dangling.length === 1 ? "its entry for" : "its entries for"} ${drift.dangling.join(", ")} ${drift.dangling.length === 1 ? "leads" : "lead"} to no page`);
  return `index.md is out of step: ${parts.join("; ")}.`;
}
