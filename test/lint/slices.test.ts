/**
 * Lint shares Obsidian's main thread in slices: reading the pages and the exact checks yield like
 * the duplicate pass does, stop at a cancel between slices, and find exactly what they find in one
 * piece. No real timing: each step costs a known amount on an injected clock.
 */
import { describe, expect, it } from "vitest";
import { isExcluded } from "../../src/core/perimeter";
import { exactChecks, exactChecksSliced } from "../../src/lint/exact-checks";
import { runLint } from "../../src/lint/run-lint";
import { sliceCheckpoint, SLICE_MS } from "../../src/lint/slices";
import { loadSnapshot } from "../../src/lint/snapshot";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { PLANTED } from "./planted-wiki";

/** A vault that counts its reads, each costing `readMs` on the shared fake clock. */
class CountingVault extends MemoryVault {
  reads = 0;
  constructor(
    files: Record<string, string>,
    private readonly fakeClock: { ms: number },
    private readonly readMs: number,
  ) {
    super(files);
  }
  override read(path: string): Promise<string> {
    this.reads++;
    this.fakeClock.ms += this.readMs;
    return super.read(path);
  }
}

const notExcluded = (p: string) => isExcluded(p, []);

/** Forty more small pages, so that the wiki spans many slices. */
function largerWiki(): Record<string, string> {
  const files: Record<string, string> = { ...PLANTED };
  for (let i = 0; i < 40; i++) files[`wiki/concepts/Extra ${i}.md`] = `---\ntype: concept\ntitle: Extra ${i}\nsources: [notes/missing ${i}.md]\n---\n\nSee [[Extra ${(i + 1) % 40}]] and [[Nowhere ${i}]].\n`;
  return files;
}

describe("lint in time slices", () => {
  it("reads the pages in slices, yielding between reads once a slice's time is used, with the same snapshot", async () => {
    const files = largerWiki();
    const clock = { ms: 0 };
    const vault = new CountingVault(files, clock, SLICE_MS / 4);
    const readsAtYield: number[] = [];
    const checkpoint = sliceCheckpoint({ now: () => clock.ms, yieldNow: () => Promise.resolve(void readsAtYield.push(vault.reads)) });
    const sliced = await loadSnapshot(vault, "wiki", notExcluded, checkpoint);
    const whole = await loadSnapshot(new MemoryVault(files), "wiki", notExcluded);
    expect(sliced).toEqual(whole);
    // Four reads fill a slice: a yield every few reads, never after the slice's budget was passed.
    expect(readsAtYield.length).toBeGreaterThan(Object.keys(files).length / 5);
    for (const [i, reads] of readsAtYield.entries()) expect(reads - (readsAtYield[i - 1] ?? 0)).toBeLessThanOrEqual(4);
  });

  it("finds exactly the same findings in slices as in one piece, yielding between pages", async () => {
    const snapshot = await loadSnapshot(new MemoryVault(largerWiki()), "wiki", notExcluded);
    let clock = 0;
    let yields = 0;
    // Each checkpoint sees 7 ms pass: about three pages a slice.
    const checkpoint = sliceCheckpoint({ now: () => (clock += 7), yieldNow: () => Promise.resolve(void yields++) });
    const sourceChanged = (note: string) => note.endsWith("changed.md");
    const sliced = await exactChecksSliced({ snapshot, sourceChanged }, checkpoint);
    expect(sliced).toEqual(exactChecks({ snapshot, sourceChanged }));
    expect(sliced.length).toBeGreaterThan(80);
    // Three passes over the pages (links counted, then checked) and one over the notes' links.
    expect(yields).toBeGreaterThan(snapshot.pages.length / 2);
  });

  it("stops at a cancel between slices, within the checks as within the reading", async () => {
    const snapshot = await loadSnapshot(new MemoryVault(largerWiki()), "wiki", notExcluded);
    const controller = new AbortController();
    let clock = 0;
    let yields = 0;
    const checkpoint = sliceCheckpoint({
      signal: controller.signal,
      now: () => (clock += 30),
      yieldNow: () => {
        if (++yields === 3) controller.abort();
        return Promise.resolve();
      },
    });
    await expect(exactChecksSliced({ snapshot }, checkpoint)).rejects.toMatchObject({ kind: "cancelled" });
    expect(yields).toBe(3);
  });

  it("in the plugin's runLint, yields while reading the wiki, and a cancel there ends the lint unwritten before the rest is read", async () => {
    const files = largerWiki();
    const clock = { ms: 0 };
    const vault = new CountingVault(files, clock, SLICE_MS / 2);
    const controller = new AbortController();
    const readsAtYield: number[] = [];
    const report = await runLint(
      {
        vault,
        store: new MemoryStateStore(),
        settings: DEFAULT_SETTINGS,
        now: () => clock.ms,
        yieldNow: () => {
          readsAtYield.push(vault.reads);
          if (readsAtYield.length === 4) controller.abort();
          return Promise.resolve();
        },
      },
      { signal: controller.signal, fix: "all" },
    );
    expect(report.error).toEqual({ kind: "cancelled", message: "The run was cancelled." });
    expect(report.fixed).toEqual([]);
    // Two reads fill a slice; the cancel came at the fourth yield, long before the last file.
    expect(readsAtYield).toEqual([2, 4, 6, 8]);
    expect(vault.reads).toBe(8);
    expect(await Promise.all(Object.keys(files).map((p) => vault.read(p)))).toEqual(Object.values(files));
  });

  it("finds the same as the CLI when the plugin's run yields throughout", async () => {
    const files = largerWiki();
    const clock = { ms: 0 };
    let yields = 0;
    const plugin = await runLint({ vault: new CountingVault(files, clock, 3), store: new MemoryStateStore(), settings: DEFAULT_SETTINGS, now: () => (clock.ms += 1), yieldNow: () => Promise.resolve(void yields++) });
    const cli = await runLint({ vault: new MemoryVault(files), store: new MemoryStateStore(), settings: DEFAULT_SETTINGS });
    expect(yields).toBeGreaterThan(Object.keys(files).length / 5);
    expect(plugin.error).toBeNull();
    expect(plugin.findings).toEqual(cli.findings);
  });
});
