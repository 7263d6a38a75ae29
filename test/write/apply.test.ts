import { readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { NodeVault } from "../../src/vault/node-vault";
import { applyPlan, type ApplyRun, type PlannedChange, type PlannedStateChange, type WriteContext } from "../../src/write/apply";
import { JOURNAL_KEY } from "../../src/write/journal";
import { recoverInterruptedRun } from "../../src/write/recover";
import { readHistory, HISTORY_LIMIT } from "../../src/write/run-history";
import { JournalSchema } from "../../src/write/write-records";
import { tempDir } from "../helpers/temp-vault";

const NOW = () => Date.UTC(2026, 10, 30, 18, 0);
const context = (store = new MemoryStateStore()): WriteContext => ({ store, writer: { kind: "cli", pid: 1, host: "here" } });
const run = (ctx: WriteContext, extra: Partial<ApplyRun> = {}): ApplyRun => ({ ...ctx, operation: "ingest", label: "Note", wikiFolder: "wiki", now: NOW, ...extra });

const create = (path: string, content: string, title = path): PlannedChange => ({ path, type: "concept", title, action: "created", create: content });
const rewrite = (path: string, content: string): PlannedChange => ({ path, type: "concept", title: path, action: "updated", update: () => ({ content, action: "updated" }) });

describe("applyPlan, the one write path", () => {
  it("writes the journal with every target's previous content before the first file changes", async () => {
    const vault = new MemoryVault({ "wiki/concepts/Old.md": "old words" });
    const ctx = context();
    const seen: unknown[] = [];
    await applyPlan(vault, [create("wiki/concepts/New.md", "new"), rewrite("wiki/concepts/Old.md", "rewritten")], {
      ...run(ctx),
      afterEachWrite: async (path) => {
        if (path === "wiki/concepts/New.md") seen.push(JournalSchema.parse(JSON.parse((await ctx.store.read(JOURNAL_KEY)) ?? "null")));
      },
    });
    const journal = JournalSchema.parse(seen[0]);
    expect(journal.entries).toEqual([
      { kind: "write", path: "wiki/concepts/New.md", previous: null, nextHash: expect.any(String) },
      { kind: "write", path: "wiki/concepts/Old.md", previous: "old words", nextHash: expect.any(String) },
      { kind: "write", path: "wiki/index.md", previous: null, nextHash: expect.any(String) },
      { kind: "write", path: "wiki/log.md", previous: null, nextHash: expect.any(String) },
    ]);
    expect(await ctx.store.read(JOURNAL_KEY)).toBeNull();
    expect(await ctx.store.read("lock.json")).toBeNull();
  });

  it("appends the log entry instead of rewriting log.md, and journals exactly the appended text", async () => {
    const vault = new MemoryVault({ "wiki/log.md": "# My log\n\nold entries\n" });
    const ctx = context();
    let journal: unknown = null;
    await applyPlan(vault, [create("wiki/concepts/A.md", "a", "A")], {
      ...run(ctx),
      logDetails: ["provider: offline"],
      afterEachWrite: async () => {
        journal ??= JSON.parse((await ctx.store.read(JOURNAL_KEY)) ?? "null");
      },
    });
    const appended = "\n## [2026-11-30] ingest | Note\n\n- created [[wiki/concepts/A|A]]\n- provider: offline\n";
    expect(vault.snapshot()["wiki/log.md"]).toBe(`# My log\n\nold entries\n${appended}`);
    expect(JournalSchema.parse(journal).entries.at(-1)).toEqual({ kind: "append", path: "wiki/log.md", text: appended, sizeBefore: 22 });
  });

  it("removes pages, drops their index lines, and records before and after in the history", async () => {
    const vault = new MemoryVault({ "wiki/concepts/A.md": "a", "wiki/index.md": "## Concepts\n\n- [[wiki/concepts/A|A]] mine\n- [[wiki/concepts/B|B]]\n" });
    const ctx = context();
    const result = await applyPlan(vault, [{ path: "wiki/concepts/A.md", type: "concept", title: "A", action: "removed", remove: { expected: "a" } }], run(ctx, { operation: "lint", label: "lint fixes" }));
    expect(result.changes).toEqual([{ path: "wiki/concepts/A.md", action: "removed" }]);
    expect(vault.snapshot()["wiki/concepts/A.md"]).toBeUndefined();
    // The user's words after the link stay, with the title in place of the link to the page gone.
    expect(vault.snapshot()["wiki/index.md"]).toBe("## Concepts\n\n- A mine\n- [[wiki/concepts/B|B]]\n");
    const { runs } = await readHistory(ctx.store);
    expect(runs[0]).toMatchObject({ id: result.runId, operation: "lint", label: "lint fixes" });
    expect(runs[0]?.files).toContainEqual({ path: "wiki/concepts/A.md", type: "concept", title: "A", action: "removed", before: "a", after: null });
  });

  it("does not rewrite files whose bytes would not change, and records nothing when nothing changes", async () => {
    const vault = new MemoryVault({ "wiki/concepts/A.md": "same" });
    const before = await vault.stat("wiki/concepts/A.md");
    const ctx = context();
    const result = await applyPlan(vault, [rewrite("wiki/concepts/A.md", "same")], run(ctx));
    expect(result).toEqual({ runId: null, changes: [{ path: "wiki/concepts/A.md", action: "unchanged" }] });
    expect(await vault.stat("wiki/concepts/A.md")).toEqual(before);
    expect(vault.snapshot()).toEqual({ "wiki/concepts/A.md": "same" });
    expect((await readHistory(ctx.store)).runs).toEqual([]);
  });

  it("stops before writing anything when a planned file was created or edited since it was planned", async () => {
    const vault = new MemoryVault({ "wiki/concepts/Taken.md": "someone else's", "wiki/concepts/B.md": "b, edited" });
    const ctx = context();
    await expect(applyPlan(vault, [create("wiki/concepts/New.md", "n"), create("wiki/concepts/Taken.md", "ours")], run(ctx))).rejects.toThrow(/created by someone else.*Nothing was written/);
    await expect(applyPlan(vault, [{ path: "wiki/concepts/B.md", type: "concept", title: "B", action: "removed", remove: { expected: "b" } }], run(ctx))).rejects.toThrow(/edited after this change was planned/);
    expect(vault.snapshot()).toEqual({ "wiki/concepts/Taken.md": "someone else's", "wiki/concepts/B.md": "b, edited" });
  });

  it("never overwrites a change made between reading a file and writing it", async () => {
    const vault = new MemoryVault({ "wiki/concepts/A.md": "a", "wiki/concepts/B.md": "b" });
    const ctx = context();
    const sneaky: PlannedChange = rewrite("wiki/concepts/B.md", "ours");
    await expect(
      applyPlan(vault, [rewrite("wiki/concepts/A.md", "ours"), sneaky], {
        ...run(ctx),
        // The user saves B right after Synapse read it.
        afterEachWrite: async (path) => {
          if (path === "wiki/concepts/A.md") await vault.process("wiki/concepts/B.md", () => "typed by the user");
        },
      }),
    ).rejects.toThrow(/changed while Synapse was writing it.*undone/);
    expect(vault.snapshot()).toEqual({ "wiki/concepts/A.md": "a", "wiki/concepts/B.md": "typed by the user" });
  });

  it("never overwrites index.md when the user edits it during a run, on disk", async () => {
    const root = tempDir("apply-");
    const vault = new NodeVault(root);
    await vault.create("wiki/index.md", "# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/A|A]]\n");
    const ctx = context();
    await expect(
      applyPlan(vault, [create("wiki/concepts/B.md", "b", "B")], {
        ...run(ctx),
        afterEachWrite: async (path) => {
          if (path === "wiki/concepts/B.md") await vault.process("wiki/index.md", (text) => `${text}- my own line\n`);
        },
      }),
    ).rejects.toThrow(/"wiki\/index.md" changed while Synapse was writing it.*undone/);
    expect(await vault.read("wiki/index.md")).toBe("# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/A|A]]\n- my own line\n");
    expect(await vault.stat("wiki/concepts/B.md")).toBeNull();
  });

  it("keeps the newest 20 runs", async () => {
    const vault = new MemoryVault();
    const ctx = context();
    let t = NOW();
    for (let i = 0; i < HISTORY_LIMIT + 3; i++) {
      t += 1000;
      const at = t;
      await applyPlan(vault, [create(`wiki/concepts/P${i}.md`, `${i}`)], run(ctx, { now: () => at, label: `run ${i}` }));
    }
    const { runs } = await readHistory(ctx.store);
    expect(runs).toHaveLength(HISTORY_LIMIT);
    expect(runs[0]?.label).toBe(`run ${HISTORY_LIMIT + 2}`);
    expect(runs.at(-1)?.label).toBe("run 3");
  });
});

describe("one writer per vault", () => {
  it("refuses a second writer with a message naming the first", async () => {
    const store = new MemoryStateStore();
    const vault = new MemoryVault();
    const first = context(store);
    let refused: unknown = null;
    await applyPlan(vault, [create("wiki/concepts/A.md", "a")], {
      ...run(first),
      afterEachWrite: async () => {
        if (refused) return;
        refused = await applyPlan(vault, [create("wiki/concepts/B.md", "b")], { ...run({ store, writer: { kind: "plugin", pid: null, host: null } }), label: "Other" }).catch((e: unknown) => e);
      },
    });
    expect(SynapseError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/^Another writer is changing this vault: the Synapse command line \(process 1 on here\), ingest of “Note”, since 18:00:00 UTC\. Nothing was written/);
    expect(vault.snapshot()["wiki/concepts/B.md"]).toBeUndefined();
  });

  it("waits for the other writer when asked to, then writes", async () => {
    const store = new MemoryStateStore();
    const vault = new MemoryVault();
    let waitedFor = "";
    const second: Promise<unknown>[] = [];
    await applyPlan(vault, [create("wiki/concepts/A.md", "a")], {
      ...run(context(store)),
      afterEachWrite: async () => {
        if (second.length > 0) return;
        second.push(
          applyPlan(vault, [create("wiki/concepts/B.md", "b")], {
            ...run({ store, writer: { kind: "cli", pid: 2, host: "here" }, lock: { waitMs: 60_000, onWait: (h) => (waitedFor = h.writer.kind) } }),
          }),
        );
        await Promise.resolve();
      },
    });
    await Promise.all(second);
    expect(waitedFor).toBe("cli");
    expect(Object.keys(vault.snapshot())).toEqual(expect.arrayContaining(["wiki/concepts/A.md", "wiki/concepts/B.md"]));
  });

  it("takes over a lock whose owner died: a dead process on this host, or a heartbeat long stopped", async () => {
    const store = new MemoryStateStore();
    const lock = (writer: object, heartbeat: number) => JSON.stringify({ version: 1, writer, token: "t", activity: "ingest of “X”", started: heartbeat, heartbeat });
    await store.write("lock.json", lock({ kind: "cli", pid: 999, host: "here" }, NOW()));
    const vault = new MemoryVault();
    await applyPlan(vault, [create("wiki/concepts/A.md", "a")], { ...run(context(store)), lock: { isAlive: (pid) => pid !== 999 } });
    // A heartbeat that stands still for the stale interval, timed by this device's (fake) clock.
    let clock = 0;
    const fake = { monotonic: () => clock, sleep: async (ms: number) => void (clock += ms) };
    await store.write("lock.json", lock({ kind: "plugin", pid: null, host: null }, NOW() - 10 * 60_000));
    await applyPlan(vault, [create("wiki/concepts/B.md", "b")], { ...run(context(store)), lock: { ...fake, waitMs: 61_000 } });
    await store.write("lock.json", lock({ kind: "plugin", pid: null, host: null }, NOW() - 10 * 60_000));
    await expect(applyPlan(vault, [create("wiki/concepts/C.md", "c")], { ...run(context(store)), lock: { ...fake, waitMs: 59_000 } })).rejects.toThrow(/the Synapse plugin in Obsidian/);
  });
});

describe("recovering an interrupted run", () => {
  const initial = { "wiki/concepts/Old.md": "old", "wiki/concepts/Gone.md": "gone", "wiki/index.md": "# Mine\n\n- [[wiki/concepts/Gone|Gone]] note\n", "wiki/log.md": "# Log\n" };
  const changes: PlannedChange[] = [
    create("wiki/concepts/New.md", "new", "New"),
    rewrite("wiki/concepts/Old.md", "changed"),
    { path: "wiki/concepts/Gone.md", type: "concept", title: "Gone", action: "removed", remove: {} },
  ];

  /** Plays a run until `writes` files are written, then "crashes": the journal and a dead writer's lock stay. */
  async function crashAfter(writes: number) {
    const vault = new MemoryVault(initial);
    const store = new MemoryStateStore();
    const crash = new Error("crash");
    let n = 0;
    await applyPlan(vault, changes, {
      ...run({ store, writer: { kind: "cli", pid: 5, host: "h" } }),
      // An exception here is not a write failure: like a kill, it skips the rollback.
      afterEachWrite: async () => {
        if (++n === writes) throw crash;
      },
    }).catch((e: unknown) => {
      if (e !== crash) throw e;
    });
    await store.write("lock.json", JSON.stringify({ version: 1, writer: { kind: "cli", pid: 5, host: "h" }, token: "dead", activity: "ingest of “Note”", started: NOW(), heartbeat: NOW() }));
    return { vault, store };
  }

  it.each([1, 2, 3, 4, 5])("restores the whole vault after a crash following write %i of 5", async (writes) => {
    const { vault, store } = await crashAfter(writes);
    expect(vault.snapshot()).not.toEqual(initial);
    const report = await recoverInterruptedRun(vault, { store, writer: { kind: "cli", pid: 6, host: "h" }, lock: { isAlive: (pid) => pid === 6 }, wikiFolder: "wiki" });
    expect(report).toMatchObject({ status: "done", journal: { status: "rolled-back", kept: [] } });
    expect(vault.snapshot()).toEqual(initial);
    expect(await store.read(JOURNAL_KEY)).toBeNull();
    expect((await readHistory(store)).runs).toEqual([]);
  });

  it("leaves the run of a writer that is alive alone", async () => {
    const { vault, store } = await crashAfter(2);
    const halfway = vault.snapshot();
    const report = await recoverInterruptedRun(vault, { store, writer: { kind: "cli", pid: 6, host: "h" }, lock: { isAlive: () => true }, wikiFolder: "wiki" });
    expect(report.status).toBe("busy");
    expect(vault.snapshot()).toEqual(halfway);
  });

  it("keeps a file someone changed after the crash, and says so", async () => {
    const { vault, store } = await crashAfter(2);
    await vault.process("wiki/concepts/Old.md", () => "typed after the crash");
    const report = await recoverInterruptedRun(vault, { store, writer: { kind: "cli", pid: 6, host: "h" }, lock: { isAlive: () => false }, wikiFolder: "wiki" });
    expect(report).toMatchObject({ journal: { status: "rolled-back", kept: ["wiki/concepts/Old.md"] } });
    expect(vault.snapshot()).toEqual({ ...initial, "wiki/concepts/Old.md": "typed after the crash" });
  });

  it("the next write also settles what the dead writer's file writes left: temporary files and a file set aside", async () => {
    const root = tempDir("vault-");
    const vault = new NodeVault(root);
    for (const [path, content] of Object.entries(initial)) await vault.create(path, content);
    const store = new MemoryStateStore();
    const crash = new Error("crash");
    await applyPlan(vault, changes, {
      ...run({ store, writer: { kind: "cli", pid: 5, host: "h" } }),
      afterEachWrite: () => Promise.reject(crash),
    }).catch((e: unknown) => {
      if (e !== crash) throw e;
    });
    // Killed inside its next write: the new text half written, the page it was replacing set aside.
    writeFileSync(join(root, "wiki/concepts/Old.md.0123456789ab.synapse-tmp"), "half");
    renameSync(join(root, "wiki/concepts/Old.md"), join(root, "wiki/concepts/Old.md.0123456789ab.synapse-aside"));
    await store.write("lock.json", JSON.stringify({ version: 1, writer: { kind: "cli", pid: 5, host: "h" }, token: "dead", activity: "ingest of “Note”", started: NOW(), heartbeat: NOW() }));

    await applyPlan(vault, [create("wiki/concepts/Later.md", "later", "Later")], { ...run({ store, writer: { kind: "cli", pid: 6, host: "h" } }), lock: { isAlive: () => false } });
    const files = readdirSync(join(root, "wiki/concepts")).sort();
    expect(files).toEqual(["Gone.md", "Later.md", "Old.md"]);
    expect(readFileSync(join(root, "wiki/concepts/Old.md"), "utf8")).toBe("old");
  });

  it("the next write rolls back a leftover journal before it starts", async () => {
    const { vault, store } = await crashAfter(3);
    await applyPlan(vault, [create("wiki/concepts/Later.md", "later", "Later")], { ...run({ store, writer: { kind: "cli", pid: 6, host: "h" } }), lock: { isAlive: () => false } });
    const files = vault.snapshot();
    expect(files["wiki/concepts/Old.md"]).toBe("old");
    expect(files["wiki/concepts/Gone.md"]).toBe("gone");
    expect(files["wiki/concepts/New.md"]).toBeUndefined();
    expect(files["wiki/concepts/Later.md"]).toBe("later");
  });
});

describe("Synapse's records that change with a run", () => {
  const initial = { "wiki/concepts/Old.md": "old", "wiki/log.md": "# Log\n" };
  const status = (value: string): PlannedStateChange => ({ key: "record.json", update: (current, runId) => `${current ?? ""}${value} by ${runId !== null && runId.length > 0 ? "the run" : "?"}\n` });

  it("are journaled, written after the files, and recorded in the history for undo", async () => {
    const vault = new MemoryVault(initial);
    const ctx = context();
    await ctx.store.write("record.json", "before\n");
    let journal: unknown = null;
    const result = await applyPlan(vault, [rewrite("wiki/concepts/Old.md", "new")], {
      ...run(ctx, { state: [status("one"), status("two")] }),
      afterEachWrite: async () => {
        journal ??= JSON.parse((await ctx.store.read(JOURNAL_KEY)) ?? "null");
      },
    });
    expect(await ctx.store.read("record.json")).toBe("before\none by the run\ntwo by the run\n");
    expect(JournalSchema.parse(journal).entries.filter((e) => e.kind === "state")).toEqual([{ kind: "state", key: "record.json", previous: "before\n", nextHash: expect.any(String) }]);
    const [recorded] = (await readHistory(ctx.store)).runs;
    expect(recorded?.id).toBe(result.runId);
    expect(recorded?.state).toEqual([{ key: "record.json", before: "before\n", after: "before\none by the run\ntwo by the run\n" }]);
  });

  it("make a run on their own when no file changes, and none when they change nothing either", async () => {
    const vault = new MemoryVault(initial);
    const ctx = context();
    expect((await applyPlan(vault, [], run(ctx, { state: [{ key: "record.json", update: (c) => c }] }))).runId).toBeNull();
    expect((await applyPlan(vault, [], run(ctx, { state: [status("one")] }))).runId).not.toBeNull();
    expect(await ctx.store.read("record.json")).toBe("one by the run\n");
  });

  it("a failing update stops the run before anything is written", async () => {
    const vault = new MemoryVault(initial);
    const ctx = context();
    const refuse: PlannedStateChange = { key: "record.json", update: () => { throw new SynapseError("input", "No such record."); } };
    await expect(applyPlan(vault, [rewrite("wiki/concepts/Old.md", "new")], run(ctx, { state: [refuse] }))).rejects.toThrow("No such record.");
    expect(vault.snapshot()).toEqual(initial);
    expect(await ctx.store.read("record.json")).toBeNull();
  });

  it.each([1, 2, 3])("are rolled back with the files after a crash following write %i of 3", async (writes) => {
    const vault = new MemoryVault(initial);
    const store = new MemoryStateStore();
    await store.write("record.json", "before\n");
    const crash = new Error("crash");
    let n = 0;
    await applyPlan(vault, [rewrite("wiki/concepts/Old.md", "new")], {
      ...run({ store, writer: { kind: "cli", pid: 5, host: "h" } }, { maintainIndex: false, state: [status("one")] }),
      afterEachWrite: async () => {
        if (++n === writes) throw crash;
      },
    }).catch((e: unknown) => {
      if (e !== crash) throw e;
    });
    await store.write("lock.json", JSON.stringify({ version: 1, writer: { kind: "cli", pid: 5, host: "h" }, token: "dead", activity: "lint", started: NOW(), heartbeat: NOW() }));
    const report = await recoverInterruptedRun(vault, { store, writer: { kind: "cli", pid: 6, host: "h" }, lock: { isAlive: (pid) => pid === 6 }, wikiFolder: "wiki" });
    expect(report).toMatchObject({ status: "done", journal: { status: "rolled-back", kept: [], files: ["wiki/concepts/Old.md", "wiki/log.md"] } });
    expect(vault.snapshot()).toEqual(initial);
    expect(await store.read("record.json")).toBe("before\n");
  });
});
