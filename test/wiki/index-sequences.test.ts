/**
 * Random sequences through the real write path (a fake provider on the memory vault): ingest, the
 * user's rename or deletion of a page (followed as Obsidian reports it), a source note deleted and
 * retracted, and undo (followed by what the next command finds on disk). After every step index.md
 * lists exactly what a fresh rebuild from the pages would: each page once, under its title, in its
 * type's section, and no line for a page that is gone.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../src/core/markdown";
import type { WikiPage } from "../../src/core/schemas";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { followPages } from "../../src/wiki/index-follow";
import { ENTRY } from "../../src/write/index-entry";
import { editIndex } from "../../src/write/index-log";
import { ingestNote } from "../../src/wiki/ingest-note";
import { retractNote } from "../../src/wiki/retract-run";
import { previewUndo, undoLastRun } from "../../src/write/undo";
import { aPage, ScriptedProvider } from "../builders";

const NOTES = ["notes/Ada.md", "notes/Grace.md"] as const;
const TOPICS: Record<(typeof NOTES)[number], readonly string[]> = { "notes/Ada.md": ["Volcano", "Cathedral"], "notes/Grace.md": ["Cathedral", "Lighthouse"] };
const noteText = (path: string) => `# ${path}\n\n${(TOPICS[path as (typeof NOTES)[number]] ?? []).map((t) => `- topic: ${t}`).join("\n")}\n`;

type Step =
  | { readonly kind: "ingest"; readonly note: (typeof NOTES)[number] }
  | { readonly kind: "rename"; readonly page: number }
  | { readonly kind: "delete"; readonly page: number }
  | { readonly kind: "retract"; readonly note: (typeof NOTES)[number] }
  | { readonly kind: "restore-note"; readonly note: (typeof NOTES)[number] }
  | { readonly kind: "undo" };

const note = fc.constantFrom(...NOTES);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("ingest" as const), note }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("rename" as const), page: fc.nat(10) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), page: fc.nat(10) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("retract" as const), note }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("restore-note" as const), note }) },
  { weight: 2, arbitrary: fc.constant({ kind: "undo" as const }) },
);

const isPage = (path: string) => path.startsWith("wiki/") && !/^wiki\/(index|log)\.md$/.test(path);

/** index.md's entry lines under their section headings, sorted: what "lists the same pages" compares. */
function entries(index: string): string[] {
  let heading = "";
  const out: string[] = [];
  for (const line of index.split("\n")) {
    if (/^## /.test(line)) heading = line;
    else if (ENTRY.test(line)) out.push(`${heading} ${line.trim()}`);
  }
  return out.sort();
}

class World {
  readonly vault = new MemoryVault(Object.fromEntries(NOTES.map((n) => [n, noteText(n)])));
  readonly write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  private readonly provider = new ScriptedProvider([
    (run) => Promise.resolve([...(run.source?.text ?? "").matchAll(/^- topic: (.+)$/gm)].map((m): WikiPage => aPage().titled(m[1] ?? "").withSources(run.source?.path ?? "").withContent(`${m[1] ?? ""} from ${run.source?.path ?? ""}.`).build())),
  ]);
  private clock = Date.parse("2026-12-01T09:00:00Z");
  private renames = 0;
  private readonly now = () => (this.clock += 1000);

  pages(): string[] {
    return Object.keys(this.vault.snapshot()).filter(isPage).sort();
  }

  async run(s: Step): Promise<void> {
    switch (s.kind) {
      case "ingest":
        if (!(await this.vault.stat(s.note))) return;
        expect((await ingestNote({ vault: this.vault, provider: this.provider, settings: DEFAULT_SETTINGS, write: this.write, now: this.now }, { notePath: s.note, force: true })).error).toBeNull();
        return;
      case "rename": {
        const from = this.pages()[s.page % Math.max(1, this.pages().length)];
        if (!from) return;
        const to = from.replace(/\.md$/, ` renamed ${(this.renames += 1)}.md`);
        await this.vault.create(to, await this.vault.read(from));
        await this.vault.remove(from);
        await followPages(this.vault, this.write, "wiki", { moves: [{ from, to }] }, this.now);
        return;
      }
      case "delete": {
        const path = this.pages()[s.page % Math.max(1, this.pages().length)];
        if (!path) return;
        await this.vault.remove(path);
        await followPages(this.vault, this.write, "wiki", { removed: [path] }, this.now);
        return;
      }
      case "retract":
        if (await this.vault.stat(s.note)) await this.vault.remove(s.note);
        await retractNote(this.vault, this.write, { notePath: s.note, wikiFolder: "wiki", isExcluded: () => false, date: "2026-12-01", now: this.now });
        return;
      case "restore-note":
        if (!(await this.vault.stat(s.note))) await this.vault.create(s.note, noteText(s.note));
        return;
      case "undo": {
        const preview = await previewUndo(this.vault, this.write);
        if (!preview || preview.conflicts.length > 0) return;
        await undoLastRun(this.vault, this.write, { wikiFolder: "wiki", now: this.now });
        // What the next command finds on disk: undo may put back a line of a page renamed since.
        await followPages(this.vault, this.write, "wiki", {}, this.now);
        return;
      }
    }
  }

  async expectIndexInStep(): Promise<void> {
    const index = (await this.vault.stat("wiki/index.md")) ? await this.vault.read("wiki/index.md") : "";
    const rebuilt = editIndex(
      "",
      {
        upsert: await Promise.all(
          this.pages().map(async (path) => {
            const fm = splitFrontmatter(await this.vault.read(path)).frontmatter;
            return { path, type: String(fm.type), title: String(fm.title) };
          }),
        ),
      },
    );
    expect(entries(index)).toEqual(entries(rebuilt));
  }
}

describe("index.md stays in step with the pages through ingest, rename, delete, retract and undo", () => {
  it("equals a fresh rebuild after every step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const world = new World();
        for (const s of steps) {
          await world.run(s);
          await world.expectIndexInStep();
        }
      }),
      { numRuns: 40 },
    );
  });
});
