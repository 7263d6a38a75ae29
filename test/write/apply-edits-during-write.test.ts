/**
 * An editor saves the file Synapse is writing at every step boundary of the write — each call the
 * Node vault makes to the file system, before it and after it — and the user's text is never lost:
 * it ends up at its path or in a copy the run's error names, and a run that succeeds kept it.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toSynapseError } from "../../src/core/errors";
import { NodeVault } from "../../src/vault/node-vault";
import { applyPlan, type PlannedChange } from "../../src/write/apply";
import { hookedFs, type Boundary } from "../helpers/hooked-fs";
import { makeVault, snapshot } from "../helpers/temp-vault";
import { aWriteRun } from "../helpers/write-run";

const PAGE = "wiki/concepts/Alpha.md";
const NEW_PAGE = "wiki/concepts/Beta.md";
const INDEX = "wiki/index.md";
const LOG = "wiki/log.md";
const ORIGINAL = "---\ntitle: Alpha\ntype: concept\n---\n\nAlpha as Synapse wrote it.\n";

/** How the editor saves: in place through the path, by renaming a new file over it, or through a descriptor it opened before the run. */
type Save = "in place" | "by rename" | "open descriptor";
const SAVES: readonly Save[] = ["in place", "by rename", "open descriptor"];

interface Scenario {
  readonly name: string;
  /** The file the editor saves. */
  readonly target: string;
  readonly changes: readonly PlannedChange[];
}

const update: PlannedChange = { path: PAGE, type: "concept", title: "Alpha", action: "updated", update: (current) => ({ content: `${current}\nMore from Synapse.\n`, action: "updated" }) };
const removal: PlannedChange = { path: PAGE, type: "concept", title: "Alpha", action: "removed", remove: { expected: ORIGINAL } };
const creation: PlannedChange = { path: NEW_PAGE, type: "concept", title: "Beta", action: "created", create: "---\ntitle: Beta\ntype: concept\n---\n\nBeta.\n" };

const SCENARIOS: readonly Scenario[] = [
  { name: "a page updated", target: PAGE, changes: [update] },
  { name: "a page removed", target: PAGE, changes: [removal] },
  { name: "a page created", target: NEW_PAGE, changes: [creation] },
  { name: "index.md edited", target: INDEX, changes: [creation] },
  { name: "log.md appended to", target: LOG, changes: [update] },
];

function aVault(): string {
  return makeVault({
    [PAGE]: ORIGINAL,
    [INDEX]: "# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/Alpha|Alpha]]\n",
    [LOG]: "# Synapse log\n\n## [2026-01-01] ingest | Earlier\n",
  });
}

interface Outcome {
  readonly root: string;
  readonly error: string | null;
  readonly files: Record<string, string>;
  readonly boundaries: readonly Boundary[];
  /** Whether the editor's save happened (the boundary was reached). */
  readonly saved: boolean;
}

/** Runs the scenario with the editor saving `marker` at boundary `at` (none when `at` is never reached). */
async function runWithSave(scenario: Scenario, save: Save, at: number, marker: string): Promise<Outcome> {
  const root = aVault();
  const target = join(root, scenario.target);
  const descriptor = save === "open descriptor" && existsSync(target) ? openSync(target, "r+") : null;
  let saved = false;
  const editorSaves = () => {
    saved = true;
    if (descriptor !== null) {
      const held = Buffer.alloc(fstatSync(descriptor).size);
      readSync(descriptor, held, 0, held.length, 0);
      const text = Buffer.from(`${held.toString("utf8")}${marker}`);
      writeSync(descriptor, text, 0, text.length, 0);
      ftruncateSync(descriptor, text.length);
      return;
    }
    const text = `${existsSync(target) ? readFileSync(target, "utf8") : ""}${marker}`;
    if (save === "in place") writeFileSync(target, text);
    else {
      writeFileSync(`${target}.editor-save`, text);
      renameSync(`${target}.editor-save`, target);
    }
  };
  const fs = hookedFs((boundary) => {
    if (boundary.index === at && (save !== "open descriptor" || descriptor !== null)) editorSaves();
  });
  let error: string | null = null;
  try {
    await applyPlan(new NodeVault(root, { fs }), scenario.changes, aWriteRun());
  } catch (cause) {
    error = toSynapseError(cause).message;
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
  return { root, error, files: snapshot(root), boundaries: fs.boundaries, saved };
}

/**
 * The one window the protocol leaves: a write through a descriptor opened before the file was set
 * aside, landing after the set-aside copy was last compared (node-guarded-write.ts).
 */
function pastLastComparison(boundaries: readonly Boundary[], target: string, at: number): boolean {
  let last = -1;
  for (const b of boundaries) if (b.op === "readFile" && b.phase === "before" && b.path.startsWith(`${target}.`) && b.path.endsWith(".synapse-aside")) last = b.index;
  return last !== -1 && at > last;
}

function expectUserTextKept(scenario: Scenario, outcome: Outcome, marker: string): void {
  const leftovers = Object.keys(outcome.files).filter((p) => p.endsWith(".synapse-tmp") || p.endsWith(".synapse-aside"));
  expect(leftovers).toEqual([]);
  if (!outcome.saved) return;
  const holders = Object.entries(outcome.files).filter(([, text]) => text.includes(marker)).map(([path]) => path);
  // The user's text survives, named: at its path, or in a copy the error names.
  expect(holders.length).toBeGreaterThan(0);
  if (!holders.includes(scenario.target)) {
    expect(outcome.error).not.toBeNull();
    expect(holders.some((path) => outcome.error?.includes(path))).toBe(true);
  }
  // A run that says it succeeded did not write over the user's text.
  if (outcome.error === null) expect(outcome.files[scenario.target]).toContain(marker);
  else expect(outcome.error).toContain(scenario.target);
}

describe("an edit saved at any step of a write", () => {
  for (const scenario of SCENARIOS) {
    it(`is kept when ${scenario.name}, at every boundary and by every kind of save`, async () => {
      const dry = await runWithSave(scenario, "in place", -1, "");
      expect(dry.error).toBeNull();
      const count = dry.boundaries.length;
      expect(count).toBeGreaterThan(4);
      for (const save of SAVES) {
        for (let at = 0; at < count; at++) {
          const marker = `\nUSER EDIT ${save} ${at}\n`;
          const outcome = await runWithSave(scenario, save, at, marker);
          if (save === "open descriptor" && pastLastComparison(outcome.boundaries, join(outcome.root, scenario.target), at)) continue;
          try {
            expectUserTextKept(scenario, outcome, marker);
          } catch (failure) {
            throw new Error(`${save} save at boundary ${at} (${describe_(outcome.boundaries[at])}): ${String(failure)}\nerror: ${outcome.error}`);
          }
        }
      }
    });
  }

  it("keeps any text, saved at a boundary fast-check picks", async () => {
    const counts = new Map<Scenario, number>();
    for (const scenario of SCENARIOS) counts.set(scenario, (await runWithSave(scenario, "in place", -1, "")).boundaries.length);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SCENARIOS), fc.constantFrom(...SAVES), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }), async (scenario, save, where, words) => {
        const at = Math.floor(where * (counts.get(scenario) ?? 0));
        const marker = `\n${words.replace(/\r/g, "")}¶${at}\n`;
        const outcome = await runWithSave(scenario, save, at, marker);
        if (save === "open descriptor" && pastLastComparison(outcome.boundaries, join(outcome.root, scenario.target), at)) return;
        expectUserTextKept(scenario, outcome, marker);
      }),
      { numRuns: 40 },
    );
  });
});

function describe_(boundary: Boundary | undefined): string {
  return boundary ? `${boundary.phase} ${boundary.op} ${boundary.path.slice(boundary.path.indexOf("/wiki/") + 1)}` : "never reached";
}
