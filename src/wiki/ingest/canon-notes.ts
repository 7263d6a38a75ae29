/**
 * The user's notes are the canon: a subject the vault already has a note about (outside the wiki
 * folder, not excluded) gets no wiki page that duplicates it. The note is found the way an
 * existing wiki page is (find-existing.ts: title, an alias its frontmatter gives, or the
 * similarity shortlist and its confirmation, distinguishing marks respected), and then either
 * stands in for the page (`link`: links to the subject open the note) or is linked from a page
 * written as before (`page`).
 */
import { inFolders } from "../../core/perimeter";
import type { WikiPage } from "../../core/schemas";
import type { VaultPort } from "../../vault/vault-port";
import { findExistingPage, type ConfirmMatch, type FindOptions } from "./find-existing";
import { readRecord, type PageRecord } from "../identity";
import { basenameOf } from "../page-paths";
import { inFolder } from "../read-note";

import type { CanonMode } from "../../settings/schema";

/** A planned page that a user note stood in for, or that links to one. */
export interface LinkedNote {
  /** The title the model gave the page. */
  readonly title: string;
  readonly notePath: string;
  /** One sentence for the run result. */
  readonly sentence: string;
}

export interface CanonNotes {
  readonly mode: CanonMode;
  /** The user's notes that may stand for the page's subject. */
  readonly notes: (page: WikiPage) => Promise<readonly PageRecord[]>;
}

export interface UserNoteOptions {
  readonly wikiFolder: string;
  readonly excludedFolders: readonly string[];
  readonly notePath: string;
  /**
   * The vault's files with this name, from the search index's catalogue: with it the vault is never
   * listed, and only notes named like the page or one of its aliases are read.
   */
  readonly named?: (basename: string) => readonly string[];
}

/**
 * The vault's notes outside the wiki folder and the excluded folders, the ingested note aside (its
 * own subject is summarised on its source page, not replaced by it). Each note is read once per ingest.
 */
export function userNotes(vault: VaultPort, options: UserNoteOptions): (page: WikiPage) => Promise<readonly PageRecord[]> {
  const records = new Map<string, Promise<PageRecord[]>>();
  const record = (path: string): Promise<PageRecord[]> => {
    let found = records.get(path);
    if (!found) {
      // A note that cannot be read is not the canon of anything; the ingest goes on without it.
      found = readRecord(vault, path).then((r) => [r], () => []);
      records.set(path, found);
    }
    return found;
  };
  const inWiki = inFolder(options.wikiFolder);
  const excluded = inFolders(options.excludedFolders);
  const isUserNote = (p: string) => p !== options.notePath && !inWiki(p) && !excluded(p);
  let listed: Promise<string[]> | null = null;
  return async (page) => {
    const { named } = options;
    const paths = named ? [page.title, ...(page.aliases ?? [])].flatMap((name) => named(name)) : await (listed ??= vault.list(""));
    const out: PageRecord[] = [];
    for (const path of new Set(paths.filter(isUserNote))) out.push(...(await record(path)));
    return out;
  };
}

/** The link that opens the note whatever other file shares its name: its path without `.md`. */
export function noteLink(notePath: string, title: string): string {
  const target = notePath.replace(/\.md$/iu, "");
  return target === title ? `[[${target}]]` : `[[${target}|${title}]]`;
}

/** The user note about the page's subject, or null. Source pages summarise a note and are never replaced. */
export async function canonNoteFor(page: WikiPage, canon: CanonNotes, confirm: ConfirmMatch, options: FindOptions): Promise<PageRecord | null> {
  if (page.type === "source") return null;
  const match = await findExistingPage(page, await canon.notes(page), confirm, options);
  return match?.record ?? null;
}

export function linkedSentence(mode: CanonMode, note: PageRecord): string {
  const link = `[[${basenameOf(note.path)}]]`;
  return mode === "link" ? `Linked to your note ${link} instead of writing a page.` : `The page links to your note ${link}.`;
}
