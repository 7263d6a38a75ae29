/**
 * "Retract a deleted source" in Obsidian: the source notes the wiki cites that are gone (deleted,
 * or now in an excluded folder) are offered; the chosen one's part leaves the wiki through the
 * review window and one run of the write path, undone by "Undo last ingest or other change".
 */
import { Notice, type App } from "obsidian";
import { isExcluded } from "../core/perimeter";
import { messageOn, toSynapseError } from "../core/errors";
import { plural } from "../core/plural";
import { goneSources } from "../lint/gone-sources";
import { loadSnapshot } from "../lint/snapshot";
import type { WriteContext } from "../write/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { retractNote, type RetractOutcome } from "../wiki/retract-run";
import type { ReviewHook } from "../wiki/review";
import type { ObsidianVault } from "./obsidian-vault";
import type { SettingsStore } from "./settings-store";

export interface RetractServiceDeps {
  readonly app: App;
  readonly vault: ObsidianVault;
  readonly settings: SettingsStore;
  readonly write: WriteContext;
  /** Shows the planned changes as diffs and says which to write (always asked: a retract removes text). */
  readonly review: ReviewHook;
  /** Shows the picker of gone sources; calls back with the one chosen. */
  readonly pick: (sources: readonly string[], chosen: (source: string) => void) => void;
}

/** The sentence the notice shows after a retract. */
export function describeRetract(outcome: RetractOutcome): string {
  const { plan, applied } = outcome;
  if (plan.changes.length === 0 && plan.kept.length === 0) return `Nothing of ${plan.notePath} is on the wiki.`;
  if (outcome.runId === null && plan.changes.length > 0) return `Nothing was retracted from ${plan.notePath}.`;
  const kept = plan.kept.length > 0 ? ` Kept because you edited or locked them: ${plan.kept.map((k) => k.path).join(", ")}.` : "";
  return `Retracted ${plan.notePath} from ${plural(applied.length, "page")}.${kept}`;
}

export class RetractService {
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RetractServiceDeps) {}

  private excluded(): (path: string) => boolean {
    const folders = this.deps.settings.settings.excludedFolders;
    return (path) => isExcluded(path, folders);
  }

  /** The gone sources the wiki still cites. */
  async candidates(): Promise<string[]> {
    return goneSources(await loadSnapshot(this.deps.vault, this.deps.settings.settings.wikiFolder, this.excluded()));
  }

  /** The command: pick a gone source, then retract it. */
  async choose(): Promise<void> {
    const sources = await this.candidates();
    if (sources.length === 0) {
      new Notice("Every source the wiki cites is still there: nothing to retract.");
      return;
    }
    this.deps.pick(sources, (source) => void this.retract(source));
  }

  /** Retracts one note through the review window; settles when done (tests wait on it). */
  retract(notePath: string): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        const outcome = await retractNote(this.deps.vault, this.deps.write, {
          notePath,
          wikiFolder: effectiveWikiFolder(this.deps.settings.settings.wikiFolder),
          isExcluded: this.excluded(),
          date: new Date().toISOString().slice(0, 10),
          review: this.deps.review,
        });
        new Notice(describeRetract(outcome), 10000);
      } catch (thrown) {
        new Notice(`Synapse could not retract ${notePath}: ${messageOn(toSynapseError(thrown), "plugin")}`, 10000);
      }
    });
    return this.running;
  }

  settled(): Promise<void> {
    return this.running;
  }
}
