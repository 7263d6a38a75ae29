/**
 * The registry of ingested notes (`sources.json` in the StateStore): for every note, the SHA-256
 * of its text when it was last ingested, when, into which wiki folder, and the pages that ingest
 * wrote or confirmed. It lets an unchanged note skip the provider entirely ("already up to date"),
 * recognises a note that was only moved or renamed by its content, and tells lint which pages may be
 * stale because their source changed since.
 *
 * The registry is a cache of facts, never the only copy of anything: an unreadable or missing file
 * means "nothing known", so the worst case is a re-ingest, never a lost note.
 */
import * as z from "zod";
import type { StateStore } from "../vault/state-store";
import type { PlannedStateChange } from "./planned-change";

export const SOURCES_KEY = "sources.json";

const SourceEntrySchema = z.object({
  /** `sha256:<hex>` of the note's text with line endings normalised (see `noteFingerprint`). */
  hash: z.string(),
  /** ISO timestamp of the ingest that recorded this entry. */
  ingestedAt: z.string(),
  /** The wiki folder the pages went to; another folder is another wiki, so the note is not up to date there. */
  wikiFolder: z.string(),
  /** Vault paths of the pages that ingest wrote or found already up to date (not index.md or log.md). */
  pages: z.array(z.string()),
  /**
   * The write run that recorded it (null when the ingest changed no file). An undo of that run
   * takes the pages back, so the note is no longer up to date then, whatever its hash says.
   */
  runId: z.string().nullable().default(null),
});
export type SourceEntry = z.infer<typeof SourceEntrySchema>;
/** An entry as a caller records it (`runId` may be left out: no run known). */
export type NewSourceEntry = z.input<typeof SourceEntrySchema>;

const RegistrySchema = z.object({
  version: z.literal(1),
  /** Keyed by the note's vault path in Unicode NFC, so a macOS (NFD) listing finds the same entry. */
  notes: z.record(z.string(), SourceEntrySchema),
});
type Registry = z.infer<typeof RegistrySchema>;

/** What makes a note "already up to date". */
export interface UpToDate {
  readonly entry: SourceEntry;
  /** The path the note was ingested under when it has since been moved or renamed, else null. */
  readonly movedFrom: string | null;
}

function key(path: string): string {
  return path.normalize("NFC");
}

/** The note's fingerprint: SHA-256 (Web Crypto, in Node and in Obsidian alike) of its text, CRLF read as LF. */
export async function noteFingerprint(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text.replace(/\r\n/g, "\n"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function parseRegistry(text: string | null): Registry {
  if (text === null) return { version: 1, notes: {} };
  try {
    const parsed = RegistrySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { version: 1, notes: {} };
  } catch {
    return { version: 1, notes: {} };
  }
}

export class SourceRegistry {
  constructor(private readonly store: StateStore) {}

  /** The registry as stored; an unreadable or foreign file reads as empty. */
  async load(): Promise<Registry> {
    return parseRegistry(await this.store.read(SOURCES_KEY).catch(() => null));
  }

  async entry(notePath: string): Promise<SourceEntry | null> {
    return (await this.load()).notes[key(notePath)] ?? null;
  }

  /**
   * Is this note, with this fingerprint, already in this wiki? Yes when its own entry has the same
   * hash, or — for a note that was moved or renamed — another entry has it and that note is gone.
   * Either way every page the entry lists must still exist: a wiki that lost pages is not up to date.
   */
  async upToDate(
    notePath: string,
    hash: string,
    wikiFolder: string,
    exists: (path: string) => Promise<boolean>,
  ): Promise<UpToDate | null> {
    const { notes } = await this.load();
    const pagesExist = async (entry: SourceEntry) => {
      for (const page of entry.pages) if (!(await exists(page))) return false;
      return true;
    };
    const own = notes[key(notePath)];
    if (own && own.hash === hash && own.wikiFolder === wikiFolder) {
      return (await pagesExist(own)) ? { entry: own, movedFrom: null } : null;
    }
    for (const [path, entry] of Object.entries(notes)) {
      if (path === key(notePath) || entry.hash !== hash || entry.wikiFolder !== wikiFolder) continue;
      // A copy of a note that still exists is a second source, not a move: it is ingested.
      if (await exists(path)) continue;
      if (await pagesExist(entry)) return { entry, movedFrom: path };
    }
    return null;
  }

  /**
   * The same record as part of a caller's write run (see `PlannedStateChange`): the entry names
   * that run, and undoing the run puts the registry back as it was.
   */
  recordChange(notePath: string, entry: Omit<NewSourceEntry, "runId">): PlannedStateChange {
    return {
      key: SOURCES_KEY,
      update: (current, runId) => {
        const registry = parseRegistry(current);
        registry.notes[key(notePath)] = { ...entry, runId, pages: [...new Set(entry.pages)].sort() };
        return `${JSON.stringify(registry, null, 1)}\n`;
      },
    };
  }

  /**
   * Records a successful ingest (and forgets the old path of a moved note). The file is re-read
   * just before it is written, so entries recorded meanwhile by another ingest are kept.
   */
  async record(notePath: string, entry: NewSourceEntry, movedFrom: string | null = null): Promise<void> {
    const registry = await this.load();
    if (movedFrom !== null) delete registry.notes[key(movedFrom)];
    registry.notes[key(notePath)] = { ...entry, runId: entry.runId ?? null, pages: [...new Set(entry.pages)].sort() };
    await this.store.write(SOURCES_KEY, `${JSON.stringify(registry, null, 1)}\n`);
  }
}
