import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { readRejections } from "../../src/wiki/ingest/rejections";
import type { ReviewHook } from "../../src/wiki/review";
import { aPage, ScriptedProvider } from "../builders";

const A = "notes/A.md";
const X = "wiki/concepts/Xylem.md";
const Y = "wiki/concepts/Yarrow.md";
const NOW = () => Date.parse("2026-12-01T12:00:00Z");
/** What the note says now, on both pages: each version of the note changes them. */
const pages = (note: string) => {
  const version = /Version (\d+)/.exec(note)?.[1] ?? "";
  return [aPage().titled("Xylem").withSources(A).withContent(`Xylem carries water (version ${version}).`).build(), aPage().titled("Yarrow").withSources(A).withContent(`Yarrow is a flowering plant (version ${version}).`).build()];
};

function setup() {
  const vault = new MemoryVault({ [A]: "# A\n\nVersion one." });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null, device: { id: "device-one", name: "laptop" } } };
  const provider = new ScriptedProvider([(run) => Promise.resolve(pages(run.source?.text ?? ""))]);
  let version = 1;
  const ingest = async (options: { review?: ReviewHook; force?: boolean; changeNote?: boolean } = {}) => {
    if (options.changeNote !== false) await vault.process(A, () => `# A\n\nVersion ${(version += 1)}.`);
    return ingestNote({ vault, provider, settings: DEFAULT_SETTINGS, write, now: NOW }, { notePath: A, ...(options.review ? { review: options.review } : {}), ...(options.force ? { force: true } : {}) });
  };
  return { vault, write, provider, ingest };
}

describe("rejections are remembered", () => {
  it("tells the model, at the next ingest of the note, which change the user rejected and why", async () => {
    const { write, provider, ingest } = setup();
    await ingest({ changeNote: false });
    // The user unchecks the update of Yarrow, saying why.
    const declineYarrow: ReviewHook = (plan) => {
      plan.onReason?.(Y, "Yarrow is a herb, not a shrub; my page says so.");
      return Promise.resolve(plan.changes.map((c) => c.path).filter((p) => p !== Y));
    };
    await ingest({ review: declineYarrow });
    expect(await readRejections(write.store, A)).toMatchObject([{ page: Y, kind: "rejected", reason: "Yarrow is a herb, not a shrub; my page says so." }]);
    await ingest();
    const prompt = provider.generateCalls.at(-1)?.retrievalContext ?? "";
    expect(prompt).toContain('The user rejected the change to "Yarrow" (wiki/concepts/Yarrow.md) because: Yarrow is a herb, not a shrub; my page says so.');
  });

  it("keeps the reason when the user declines every change, though nothing is written", async () => {
    const { vault, write, ingest } = setup();
    await ingest({ changeNote: false });
    const before = await vault.read(X);
    await ingest({
      review: (plan) => {
        plan.onReason?.(X, "Too long.");
        return Promise.resolve([]);
      },
    });
    expect(await vault.read(X)).toBe(before);
    expect((await readRejections(write.store, A)).map((r) => `${r.page} ${r.reason}`)).toEqual([`${X} Too long.`]);
  });

  it("does not write again a page the user deleted, unless asked (force)", async () => {
    const { vault, write, ingest } = setup();
    await ingest({ changeNote: false });
    await vault.remove(Y);
    const again = await ingest();
    expect(again.error).toBeNull();
    expect(await vault.stat(Y)).toBeNull();
    expect(again.pages.find((p) => p.path === Y)).toMatchObject({ action: "unchanged", detail: expect.stringMatching(/^You deleted this page/) });
    expect(await readRejections(write.store, A)).toMatchObject([{ page: Y, kind: "deleted" }]);
    // Still not on the next change of the note, though its registry entry no longer lists the page.
    await ingest();
    expect(await vault.stat(Y)).toBeNull();

    const forced = await ingest({ force: true });
    expect(forced.pages.find((p) => p.path === Y)?.action).toBe("created");
    expect(await vault.stat(Y)).not.toBeNull();
    expect(await readRejections(write.store, A)).toEqual([]);
  });
});
