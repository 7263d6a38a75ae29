/**
 * Keeps index.md in step with the wiki pages the user renames, moves or deletes in Obsidian: each
 * reported change of a file under the wiki folder is followed by one small run of the write path
 * (`followPages`), after start-up recovery, in the order Obsidian reported them. Synapse's own
 * writes (a merge, a retract, an undo) have kept index.md in step already: following them writes
 * nothing.
 */
import { TFile, TFolder, type App, type TAbstractFile } from "obsidian";
import type { WriteContext } from "../write/apply";
import { followPages, type KnownPageChanges } from "../wiki/index-follow";
import { isInFolder } from "../wiki/read-note";
import { ObsidianVault } from "./obsidian-vault";

export class PageFollower {
  private chain: Promise<void> = Promise.resolve();
  /** The changes of the follow queued and not yet started. */
  private pending: KnownPageChanges | null = null;

  constructor(
    private readonly app: App,
    private readonly write: WriteContext,
    private readonly wikiFolder: () => string,
    /** Settles once start-up recovery is done. */
    private readonly ready: () => Promise<void>,
  ) {}

  private inWiki(path: string): boolean {
    return isInFolder(path, this.wikiFolder());
  }

  /** The vault's "rename" event. */
  renamed(file: TAbstractFile, oldPath: string): void {
    if (!this.inWiki(file.path) && !this.inWiki(oldPath)) return;
    const isPage = file instanceof TFile && file.extension.toLowerCase() === "md";
    // A folder renamed: the listing finds where its pages went (same file names).
    this.follow(isPage ? { moves: [{ from: oldPath, to: file.path }] } : file instanceof TFolder ? {} : null);
  }

  /** The vault's "delete" event. */
  deleted(file: TAbstractFile): void {
    if (!this.inWiki(file.path)) return;
    this.follow(file instanceof TFile ? (file.extension.toLowerCase() === "md" ? { removed: [file.path] } : null) : {});
  }

  private follow(known: KnownPageChanges | null): void {
    if (known === null) return;
    // Changes reported while a follow waits are followed with it: a sync that deletes a thousand
    // pages makes a few runs, not a thousand.
    if (this.pending) {
      this.pending = { moves: [...(this.pending.moves ?? []), ...(known.moves ?? [])], removed: [...(this.pending.removed ?? []), ...(known.removed ?? [])] };
      return;
    }
    this.pending = known;
    const vault = new ObsidianVault(this.app);
    this.chain = this.chain
      .then(() => this.ready())
      .then(() => {
        const batch = this.pending ?? {};
        this.pending = null;
        return followPages(vault, this.write, this.wikiFolder(), batch);
      })
      // Not worth an error in the user's face for a rename they made: lint's index check finds it.
      .then(() => undefined)
      .catch(() => undefined);
  }

  /** Settles once every reported change is followed (tests wait on it). */
  settled(): Promise<void> {
    return this.chain;
  }
}
