import { describe, expect, it } from "vitest";
import type { AskReport } from "../../src/query/ask";
import { planAnswerPage, QUERY_KEY, saveReviewTitle } from "../../src/query/save";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan, type WriteContext } from "../../src/write/apply";
import { undoLastRun } from "../../src/write/undo";
import { executableParts } from "../helpers/executable-markdown";

const NOW = () => Date.UTC(2026, 10, 30, 18, 0);
const ADA = "wiki/entities/Ada Lovelace.md";

function report(answer: string, question = "Who wrote the first program?"): AskReport {
  return {
    question,
    answer,
    grounding: "vault",
    unverifiedWarning: null,
    citations: [
      { page: "Ada Lovelace", path: ADA, verified: true, reason: "", problem: null },
      { page: "Charles Babbage", path: null, verified: false, reason: "This page was not among the passages sent to the model.", problem: "not-in-context" as const },
    ],
    passages: [
      { ref: 1, path: ADA, title: "Ada Lovelace", heading: "", text: "Ada wrote it.", kind: "wiki" },
      { ref: 2, path: "notes/engine.md", title: "engine", heading: "", text: "Engine", kind: "note" },
    ],
    consulted: [],
    leftOut: 0,
    usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 },
    provider: { name: "x", mode: "local", isLocal: true, model: null },
    error: null,
    durationMs: 1,
  };
}

async function save(vault: MemoryVault, ctx: WriteContext, r: AskReport) {
  const change = await planAnswerPage(vault, "wiki", r, [], "2026-11-30");
  await applyPlan(vault, [change], { ...ctx, operation: "query", label: r.question, wikiFolder: "wiki", now: NOW });
  return change.path;
}

describe("save as page", () => {
  it("files a synthesis page whose sources are the notes behind the cited pages, listed and logged, undoable", async () => {
    const vault = new MemoryVault({ [ADA]: "---\ntype: entity\ntitle: Ada Lovelace\nsources: [notes/ada.md]\n---\n\nAda wrote it.\n" });
    const ctx: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" } };
    const path = await save(vault, ctx, report("Ada Lovelace did [[Ada Lovelace]]."));
    expect(path).toBe("wiki/syntheses/Who wrote the first program.md");
    const page = await vault.read(path);
    expect(page).toMatch(/^---\ntype: synthesis\ntitle: Who wrote the first program\nsources:\n {2}- notes\/ada.md\n/);
    expect(page).toContain("## Sources\n\n- [[wiki/entities/Ada Lovelace|Ada Lovelace]]");
    expect(page).toContain("> [!warning] Unverified citations\n> - Charles Babbage");
    expect(await vault.read("wiki/index.md")).toContain("[[wiki/syntheses/Who wrote the first program|Who wrote the first program]]");
    expect(await vault.read("wiki/log.md")).toContain("## [2026-11-30] query | Who wrote the first program?");
    await undoLastRun(vault, ctx, { wikiFolder: "wiki", now: NOW });
    expect(await vault.stat(path)).toBeNull();
  });

  it("updates the page saved for the same question, even after the user moved it", async () => {
    const vault = new MemoryVault({ [ADA]: "---\ntype: entity\n---\n\nAda.\n" });
    const ctx: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" } };
    const first = await save(vault, ctx, report("First answer."));
    const moved = "wiki/syntheses/kept/My answer.md";
    await vault.create(moved, await vault.read(first));
    await vault.remove(first);
    const second = await save(vault, ctx, report("Second answer.", "  who wrote the FIRST program? "));
    expect(second).toBe(moved);
    const text = await vault.read(moved);
    expect(text).toContain("Second answer.");
    expect(text).not.toContain("First answer.");
    expect(text).toContain(QUERY_KEY);
    expect((await vault.list("wiki/syntheses")).filter((p) => p.includes("program"))).toEqual([]);
  });

  it("keeps the user's edits to a saved answer and adds the new answer below", async () => {
    const vault = new MemoryVault({ [ADA]: "---\ntype: entity\n---\n\nAda.\n" });
    const ctx: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" } };
    const path = await save(vault, ctx, report("First answer."));
    await vault.process(path, (t) => t.replace("First answer.", "First answer, which I annotated."));
    await save(vault, ctx, report("Second answer."));
    const text = await vault.read(path);
    expect(text).toContain("First answer, which I annotated.");
    expect(text).toContain("## Answer of 2026-11-30\n\nSecond answer.");
  });
});

describe("the review window of a save", () => {
  it("is titled with what it does and the question, in sentence case", () => {
    expect(saveReviewTitle("Who wrote the first program?")).toBe("Save answer: Who wrote the first program?");
  });

  it("shortens a long question to 60 characters and never cuts a character in half", () => {
    const question = `${"Why ".repeat(14)}😀😀 and the rest of a very long question`;
    const title = saveReviewTitle(question);
    expect(title.startsWith("Save answer: Why Why")).toBe(true);
    expect(title.endsWith("…")).toBe(true);
    expect([...title.slice("Save answer: ".length, -1)].length).toBeLessThanOrEqual(60);
    expect(title).toContain("😀");
    expect(title).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("shows a question on one line, whatever spaces and line breaks it was typed with", () => {
    expect(saveReviewTitle("  What is\n\na CRDT?  ")).toBe("Save answer: What is a CRDT?");
  });

  it("writes the model's answer inert: no HTML that runs, no script links, no running code blocks", async () => {
    const vault = new MemoryVault({ [ADA]: "---\ntype: entity\ntitle: Ada Lovelace\nsources: [notes/ada.md]\n---\n\nAda wrote it.\n" });
    const ctx: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" } };
    const hostile = 'Ada <img src=x onerror="alert(1)"> [guide](javascript:alert(1))\n```dataviewjs\ndv.x()\n```\n<%* tR += 1 %>';
    const r = { ...report(hostile), citations: [{ page: "<script>x</script>", path: null, verified: false, reason: "Not sent.", problem: "not-in-context" as const }] };
    const change = await planAnswerPage(vault, "wiki", r, [{ question: "Who?", answer: hostile, at: "2026-11-30T18:00:00Z", citations: [] }], "2026-11-30");
    await applyPlan(vault, [change], { ...ctx, operation: "query", label: r.question, wikiFolder: "wiki", now: NOW });
    const page = await vault.read(change.path);
    expect(executableParts(page)).toEqual([]);
    expect(page).toContain("&lt;img src=x");
  });
});
