import { App, Notice } from "obsidian-test-mocks/obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";
import { undoLastChange } from "../../src/obsidian/undo-service";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { applyPlan, type WriteContext } from "../../src/write/apply";

afterEach(() => vi.restoreAllMocks());

const AT = Date.UTC(2026, 11, 2, 1, 0);

async function pluginWithOneRun() {
  const app = App.createConfigured__({ files: { "wiki/log.md": "# Log\n" } });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "plugin", pid: null, host: null, device: { id: "laptop-id", name: "laptop" } } };
  const page = { path: "wiki/concepts/Bees.md", type: "concept", title: "Bees", action: "created", create: "# Bees\n" } as const;
  await applyPlan(new ObsidianVault(app.asOriginalType__()), [page], { ...write, operation: "ingest", label: "Bees note", wikiFolder: "wiki", now: () => AT });
  const notices: string[] = [];
  vi.spyOn(Notice.prototype, "constructor__").mockImplementation((message: string | DocumentFragment) => {
    notices.push(typeof message === "string" ? message : (message.textContent ?? ""));
  });
  return { app: app.asOriginalType__(), write, notices };
}

describe("the plugin's undo names the device whose run it undoes, as the CLI does", () => {
  it("in the notice after undoing", async () => {
    const { app, write, notices } = await pluginWithOneRun();
    await undoLastChange(app, write, "wiki", () => Promise.resolve(true));
    expect(notices).toEqual([expect.stringMatching(/^Undid the ingest of “Bees note” \(2026-12-02 01:00 UTC, on laptop\): \d+ files? restored\.$/)]);
  });

  it("in the question asked before an undo would discard an edit", async () => {
    const { app, write } = await pluginWithOneRun();
    await new ObsidianVault(app).process("wiki/concepts/Bees.md", () => "# Bees\n\nmy edit\n");
    const asked: string[] = [];
    await undoLastChange(app, write, "wiki", (what) => {
      asked.push(what);
      return Promise.resolve(false);
    });
    expect(asked).toEqual(["the ingest of “Bees note” (2026-12-02 01:00 UTC, on laptop)"]);
  });
});
