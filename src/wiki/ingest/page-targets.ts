/**
 * Where each page of a batch goes. The search is bounded (a numbered suffix up to MAX_NUMBER, then
 * one suffix made from the title's hash, then a clear error) because an unbounded search froze
 * Obsidian when a suffix was cut off by the length limit; every suffix is appended after the title
 * is cut to length, so it survives.
 */
import { SynapseError, toSynapseError } from "../../core/errors";
import type { PageType } from "../../core/schemas";
import { nameKey } from "../../core/unicode";
import { pathKey } from "../path-keys";
import type { VaultPort } from "../../vault/vault-port";
import { contentHash } from "../../core/content-hash";
import { isSamePage } from "../page-identity";
import { basenameOf, fileNamer, filePath } from "../page-paths";

/** Numbered names tried before the hash suffix (" (" + 8 hex digits + ")", 11 bytes): " (2)" … " (99)". */
export const MAX_NUMBER = 99;

export interface PageTarget {
  readonly path: string;
  /** True when the path is an existing file that is this page (an update, not a new file). */
  readonly exists: boolean;
  /**
   * False when the page's plain name belongs to a note of the user's: then `[[Title]]` keeps
   * pointing at that note and links are not rewritten to the page's suffixed file.
   */
  readonly linkable: boolean;
}

export interface TargetContext {
  readonly vault: VaultPort;
  readonly wikiFolder: string;
  /** Wiki pages that exist now (vault paths). */
  readonly existingPaths: readonly string[];
  /**
   * The wiki pages with this file name (without `.md`), when an index answers that in one lookup:
   * then `existingPaths` is not consulted, and no name needs a scan of every page.
   */
  readonly existingNamed?: (name: string) => readonly string[];
  /** Does a note with this basename exist anywhere in the vault (wiki pages included)? */
  readonly noteExists?: (basename: string) => boolean;
}

/** Hands out one file per page: an existing file only if it records the same title, else a free name. */
export class PageTargets {
  /** Existing wiki files by the key of their basename; a name may exist in several type folders. */
  private readonly existing = new Map<string, string[]>();
  /** Basename keys given to a page of this batch. */
  private readonly claimed = new Set<string>();

  constructor(private readonly ctx: TargetContext) {
    if (ctx.existingNamed) return;
    for (const path of ctx.existingPaths) {
      const key = pathKey(basenameOf(path));
      this.existing.set(key, [...(this.existing.get(key) ?? []), path]);
    }
  }

  async target(title: string, type: PageType): Promise<PageTarget> {
    const nameWith = fileNamer(title);
    const plain = nameWith("");
    const typed = nameWith(` (${type})`);
    const hashed = nameWith(` (${contentHash(title).slice(0, 8)})`);
    const plainIsUserNote = this.isUserNote(plain);
    const linkable = !plainIsUserNote;
    function* numbered(): Generator<string> {
      for (let n = 2; n <= MAX_NUMBER; n++) yield nameWith(` (${n})`);
    }

    // The page may exist already under any of the names it could have been given. Every such name
    // starts with the title cut for the longest suffix, so most pages skip this search at once.
    if (this.anyExistingStartsWith(nameKey(hashed.slice(0, hashed.length - 11)))) {
      for (const name of [plain, typed, ...numbered(), hashed]) {
        const found = await this.existingPage(name, title);
        if (found) return { path: found, exists: true, linkable };
      }
    }
    // A new file must shadow no note of the user's: it carries its type ("Ada (source)") instead.
    for (const name of [plainIsUserNote ? typed : plain, ...numbered(), hashed]) {
      if (this.isFree(name)) {
        this.claimed.add(nameKey(name));
        return { path: filePath(this.ctx.wikiFolder, type, name), exists: false, linkable };
      }
    }
    throw new SynapseError("vault", `No free file name is left for the page "${title}" in the wiki folder; rename or remove some of the pages called "${plain}".`);
  }

  /**
   * May `[[title]]` be rewritten to the page's file? Not when the plain name is a note of the user's
   * (`PageTarget.linkable`). Asked of a page found by the registry too, so that a page's links read
   * the same on its first ingest, when it is new, and on every later one, when it exists.
   */
  linkable(title: string): boolean {
    return !this.isUserNote(fileNamer(title)(""));
  }

  /** Is this file name a note of the user's and no wiki page's, nor a page's of this batch? */
  private isUserNote(name: string): boolean {
    return !this.exists(name) && !this.claimed.has(nameKey(name)) && (this.ctx.noteExists?.(name) ?? false);
  }

  /** Is there a wiki page with this file name? */
  private exists(name: string): boolean {
    return this.named(name).length > 0;
  }

  private named(name: string): readonly string[] {
    return this.ctx.existingNamed ? this.ctx.existingNamed(name) : (this.existing.get(nameKey(name)) ?? []);
  }

  private anyExistingStartsWith(prefix: string): boolean {
    // With the index, the ~100 names a page may have are looked up one by one instead.
    if (this.ctx.existingNamed) return true;
    for (const key of this.existing.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  private isFree(name: string): boolean {
    const key = nameKey(name);
    return !this.exists(name) && !this.claimed.has(key) && !(this.ctx.noteExists?.(name) ?? false);
  }

  /** The unclaimed existing file with this name that records `title`, if any. */
  private async existingPage(name: string, title: string): Promise<string | undefined> {
    const key = nameKey(name);
    if (this.claimed.has(key)) return undefined;
    for (const path of this.named(name)) {
      let text: string;
      try {
        text = await this.ctx.vault.read(path);
      } catch (error) {
        // A file that vanished since the listing is no one's page; one that is there but cannot be
        // read may be this page, and a second page beside it would split the wiki.
        if (!(await this.ctx.vault.stat(path).catch(() => null))) continue;
        throw new SynapseError("vault", `"${path}" exists but could not be read (${toSynapseError(error).message}), so Synapse cannot tell whether it is the page "${title}"; nothing was written. Check the file's permissions and run it again.`, { cause: error });
      }
      if (isSamePage(text, path, title)) {
        this.claimed.add(key);
        return path;
      }
    }
    return undefined;
  }
}
