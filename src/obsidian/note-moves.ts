/**
 * Follows the notes the user moves or renames in Obsidian, so that their record in the registry of
 * ingested notes moves with them at once. A note renamed and then changed before its next ingest
 * is still the same source then: its re-ingest revises its sections on the wiki's pages instead of
 * adding a second, stale-beside-new set (moved-note.ts). Outside Obsidian nothing reports renames;
 * the CLI finds a move by content or file name instead.
 */
import { TFile, TFolder, type App, type TAbstractFile } from "obsidian";
import type { WriteContext } from "../write/apply";
import { recordMove } from "../wiki/moved-note";
import { ObsidianVault } from "./obsidian-vault";

export class NoteMoves {
  /** One move recorded at a time, in the order Obsidian reported them. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly app: App,
    private readonly write: WriteContext,
    /** Settles once start-up recovery is done: nothing is recorded before the journal is clean. */
    private readonly ready: () => Promise<void>,
  ) {}

  /** The vault's "rename" event: a note, or a folder with notes in it, now at `file.path`. */
  renamed(file: TAbstractFile, oldPath: string): void {
    const moves: { from: string; to: string }[] = [];
    const add = (note: TFile) => {
      if (note.extension.toLowerCase() === "md") moves.push({ from: `${oldPath}${note.path.slice(file.path.length)}`, to: note.path });
    };
    if (file instanceof TFile) add(file);
    else if (file instanceof TFolder) {
      const walk = (folder: TFolder) => {
        for (const child of folder.children) {
          if (child instanceof TFolder) walk(child);
          else if (child instanceof TFile) add(child);
        }
      };
      walk(file);
    }
    if (moves.length === 0) return;
    const vault = new ObsidianVault(this.app);
    this.chain = this.chain
      .then(() => this.ready())
      .then(async () => {
        // A move that cannot be recorded is found again at the next ingest (by content, or by file
        // name): never worth an error in the user's face for a rename they made.
        for (const move of moves) await recordMove(vault, this.write, move).catch(() => false);
      })
      .catch(() => undefined);
  }

  /** Settles once every reported move is recorded (tests wait on it). */
  settled(): Promise<void> {
    return this.chain;
  }
}
