import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import type { InferenceProvider } from "../../src/core/provider";
import type { Message } from "../../src/core/schemas";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import type { ModelCheckEstimate } from "../../src/lint/model-checks";
import { dismissContradiction } from "../../src/lint/settle-contradiction";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { readContradictions } from "../../src/wiki/contradictions";
import { recordContradictions } from "../helpers/record-contradictions";
import { acquireWriteLock } from "../../src/write/write-lock";
import { estimateLine, spentLine } from "../../src/lint/estimate-text";
import { humanLintReport } from "../../src/cli/lint-report";
import { GROUP_LIMIT } from "../../src/lint/pair-candidates";
import { REPLY_TOKENS } from "../../src/lint/pair-prompt";
import { FakeModel, type Reply } from "./fake-model";
import type { RunContext } from "../../src/core/run-context";
import { estimateTokens } from "../../src/core/tokens";
import { SIMILAR_WIKI } from "./similar-wiki";

const NOW = () => Date.UTC(2026, 10, 30, 12, 0);
const BORN_1815 = "Ada Lovelace was born in 1815 in London.";
const BORN_1816 = "Ada was born in 1816, in London.";

const page = (type: string, title: string, sources: string[], body: string) =>
  `---\ntype: ${type}\ntitle: ${title}\nsources: [${sources.join(", ")}]\n---\n\n${body}\n`;

/** Three pages from one note (three pairs), one page from another note that links to an entity, and one unrelated page. */
function wiki(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "notes/ada.md": "Ada.",
    "notes/engine.md": "Engine.",
    "notes/tea.md": "Tea.",
    "private/diary.md": "Secret.",
    "wiki/entities/Ada Lovelace.md": page("entity", "Ada Lovelace", ["notes/ada.md"], `${BORN_1815} She wrote the first program.`),
    "wiki/entities/Ada.md": page("entity", "Ada", ["notes/ada.md"], `${BORN_1816} She worked with Babbage.`),
    "wiki/concepts/First program.md": page("concept", "First program", ["notes/ada.md"], "The first program computed Bernoulli numbers. See [[Ada Lovelace]]."),
    "wiki/concepts/Analytical Engine.md": page("concept", "Analytical Engine", ["notes/engine.md"], "A machine. [[Ada Lovelace]] wrote about it."),
    "wiki/concepts/Tea.md": page("concept", "Tea", ["notes/tea.md"], "Tea is a drink."),
    "wiki/concepts/Diary musings.md": page("concept", "Diary musings", ["private/diary.md"], "Private thoughts about [[Ada Lovelace]]."),
    ...extra,
  };
}

/** The request asks again after an unreadable reply. */
const isRetry = (messages: Message[]) => (messages[1]?.content ?? "").includes("Your previous reply could not be used");
const titlesIn = (messages: Message[]) => [...(messages[1]?.content ?? "").matchAll(/^Page [AB]: "([^"]+)"/gm)].map((m) => m[1]).sort();

/** Says the two Ada pages contradict each other (quoting them loosely) and are duplicates; nothing else. */
const adaJudge: Reply = (messages) => {
  const titles = titlesIn(messages);
  if (titles.join("|") === "Ada|Ada Lovelace") {
    return JSON.stringify({ contradictions: [{ first: "Ada was born in 1816 in London", second: BORN_1815 }, { first: "Ada was born on the Moon.", second: BORN_1815 }], duplicate: true, reason: "Both are about Ada Lovelace." });
  }
  return '{"contradictions": [], "duplicate": false, "reason": "Different subjects."}';
};

function deps(vault: MemoryVault, store: MemoryStateStore, provider: InferenceProvider, settings: Partial<Settings> = {}): LintDeps {
  return { vault, store, provider, settings: { ...DEFAULT_SETTINGS, excludedFolders: ["private"], ...settings }, write: { store, writer: { kind: "cli", pid: null, host: null } }, now: NOW };
}

describe("lint's model checks (fake backend)", () => {
  it("asks only about targeted pairs, two pages a prompt, and never about a page drawn from an excluded note", async () => {
    const model = new FakeModel(adaJudge);
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), model), { modelChecks: true });
    expect(report.error).toBeNull();
    const asked = model.calls.map(titlesIn).map((t) => t.join(" + ")).sort();
    // Three pages share notes/ada.md; the Analytical Engine and First program link to the same entity.
    expect(asked).toEqual(["Ada + Ada Lovelace", "Ada + First program", "Ada Lovelace + First program", "Analytical Engine + First program"]);
    expect(model.calls.flat().some((m) => m.content.includes("Private thoughts") || m.content.includes("Tea is a drink"))).toBe(false);
    expect(report.modelChecks).toMatchObject({ pairs: 4, toCheck: 4, checked: 4, cached: 0, unreadable: 0 });
    expect(report.usage).toMatchObject({ inputTokens: 400, outputTokens: 80 });
  });

  it("adds pairs of pages alike in their words that share no note and no entity, and only those", async () => {
    const model = new FakeModel(adaJudge);
    const teaPage = (title: string, note: string) => page("concept", title, [note], SIMILAR_WIKI[`wiki/concepts/${title}.md`]?.split("---\n\n")[1] ?? "");
    const files = wiki({ "notes/chai.md": "Chai.", "wiki/concepts/Tea.md": teaPage("Tea", "notes/tea.md"), "wiki/concepts/Tea drink.md": teaPage("Tea drink", "notes/chai.md") });
    await runLint(deps(new MemoryVault(files), new MemoryStateStore(), model), { modelChecks: true });
    const asked = model.calls.map(titlesIn).map((t) => t.join(" + "));
    expect(asked).toContain("Tea + Tea drink");
    expect(asked).not.toContain("Ada + Tea");
    expect(asked).toHaveLength(5);
  });

  it("records the contradiction with both pages' own passages (a made-up quote dropped), lists it, and reports the likely duplicate", async () => {
    const store = new MemoryStateStore();
    const report = await runLint(deps(new MemoryVault(wiki()), store, new FakeModel(adaJudge)), { modelChecks: true });
    const [record, ...others] = await readContradictions(store);
    expect(others).toEqual([]);
    // Page A is the first by path; its passage comes first, whatever order the model quoted them in.
    expect(record).toMatchObject({ pages: ["wiki/entities/Ada Lovelace.md", "wiki/entities/Ada.md"], sources: ["notes/ada.md", "notes/ada.md"], passages: [BORN_1815, BORN_1816], status: "open" });
    const contradiction = report.findings.find((f) => f.check === "contradiction");
    expect(contradiction?.message).toContain(BORN_1816);
    expect(contradiction?.message).toContain(BORN_1815);
    const duplicate = report.findings.find((f) => f.check === "duplicate");
    expect(duplicate).toMatchObject({ page: "wiki/entities/Ada.md", message: expect.stringContaining("(model check): Both are about Ada Lovelace.") as unknown });
    expect(duplicate?.fixes[0]?.params).toEqual({ keep: "wiki/entities/Ada.md", remove: "wiki/entities/Ada Lovelace.md" });
  });

  it("caches verdicts by both pages' content: a second lint makes no call, and a changed page re-asks only its pairs", async () => {
    const vault = new MemoryVault(wiki());
    const store = new MemoryStateStore();
    const first = new FakeModel(adaJudge);
    await runLint(deps(vault, store, first), { modelChecks: true });
    expect(first.calls).toHaveLength(4);

    const second = new FakeModel(adaJudge);
    const again = await runLint(deps(vault, store, second), { modelChecks: true });
    expect(second.calls).toHaveLength(0);
    expect(again.modelChecks).toMatchObject({ pairs: 4, cached: 4, toCheck: 0 });
    // Cached verdicts still report: the duplicate and the open contradiction are listed again.
    expect(again.findings.map((f) => f.check).filter((c) => c === "contradiction" || c === "duplicate").sort()).toEqual(["contradiction", "duplicate"]);

    await vault.process("wiki/concepts/Analytical Engine.md", (t) => t.replace("A machine.", "A mechanical computer."));
    const third = new FakeModel(adaJudge);
    await runLint(deps(vault, store, third), { modelChecks: true });
    expect(third.calls.map(titlesIn)).toEqual([["Analytical Engine", "First program"]]);
  });

  it("a dismissed contradiction from the model stays dismissed on the next lint", async () => {
    const vault = new MemoryVault(wiki());
    const store = new MemoryStateStore();
    const d = deps(vault, store, new FakeModel(adaJudge));
    await runLint(d, { modelChecks: true });
    const [record] = await readContradictions(store);
    await dismissContradiction(d, record?.id ?? "");
    await store.remove("lint-model-checks.json"); // even asked afresh, the model's same finding stays dismissed
    const again = await runLint(deps(vault, store, new FakeModel(adaJudge)), { modelChecks: true });
    expect(again.findings.filter((f) => f.check === "contradiction")).toEqual([]);
  });

  it("adds what it found to the record under the write lock: a writer holding it first keeps its change", async () => {
    const vault = new MemoryVault(wiki());
    const store = new MemoryStateStore();
    const other = await acquireWriteLock(store, { writer: { kind: "plugin", pid: null, host: null }, activity: "ingest of “Bridge”" });
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    const d: LintDeps = { ...deps(vault, store, new FakeModel(adaJudge)), write: { store, writer: { kind: "cli", pid: null, host: null }, lock: { waitMs: 20_000, onWait: () => waiting() } } };
    const linting = runLint(d, { modelChecks: true });
    await waited;
    // The model has answered; lint waits for the lock before touching the record.
    expect(await store.read("contradictions.json")).toBeNull();
    const theirs = { page: "wiki/concepts/Tea.md", sources: ["notes/tea.md", "notes/chai.md"] as const, passages: ["Tea is from 1610.", "Tea is from 1620."] as const };
    await recordContradictions(store, [theirs], "2026-11-30");
    await other.release();
    const report = await linting;
    expect(report.error).toBeNull();
    const records = await readContradictions(store);
    expect(records.map((r) => r.pages[0])).toEqual(["wiki/concepts/Tea.md", "wiki/entities/Ada Lovelace.md"]);
    expect(await store.read("lock.json")).toBeNull();
  });

  it("repairs a reply like ingest does, asks again once with what was wrong, and leaves a pair it cannot read uncached", async () => {
    const replies: Reply = (messages) => {
      const titles = titlesIn(messages).join("|");
      if (titles === "Ada|Ada Lovelace") return 'Here you go:\n```json\n{"contradictions": [], "duplicate": false, "reason": "fine",}\n```';
      if (titles === "Ada|First program") return isRetry(messages) ? '{"contradictions": [], "duplicate": false}' : '{"contradictions": "none", "duplicate": "no"}';
      return "I would rather not say.";
    };
    const store = new MemoryStateStore();
    const vault = new MemoryVault(wiki());
    const model = new FakeModel(replies);
    const report = await runLint(deps(vault, store, model), { modelChecks: true });
    expect(report.error).toBeNull();
    expect(report.modelChecks).toMatchObject({ checked: 2, unreadable: 2 });
    // Asked again in the same one system message and one user message, the problem appended.
    expect(model.calls.every((m) => m.length === 2 && m[0]?.role === "system" && m[1]?.role === "user")).toBe(true);
    const retried = model.calls.filter(isRetry);
    expect(retried.map((m) => m[1]?.content ?? "").some((c) => c.endsWith('Your previous reply could not be used: "contradictions": Invalid input: expected array, received string. Reply again with the JSON object only.'))).toBe(true);
    // 2 pairs read at once or on the second ask, 2 asked twice and never readable: 1 + 2 + 2 + 2 calls.
    expect(model.calls).toHaveLength(7);
    const next = new FakeModel(adaJudge);
    await runLint(deps(vault, store, next), { modelChecks: true });
    expect(next.calls).toHaveLength(2);
  });

  it("a verdict whose every quoted passage is made up is no verdict: not recorded, not cached, reported as not checked, asked again", async () => {
    // The Ada pair "contradicts", but neither quote is on either page.
    const madeUp: Reply = (messages) =>
      titlesIn(messages).join("|") === "Ada|Ada Lovelace"
        ? JSON.stringify({ contradictions: [{ first: "Ada was born on the Moon.", second: "Ada was born on Mars in 1900." }], duplicate: false, reason: "Different birthplaces." })
        : '{"contradictions": [], "duplicate": false, "reason": "Different subjects."}';
    const store = new MemoryStateStore();
    const vault = new MemoryVault(wiki());
    const model = new FakeModel(madeUp);
    const report = await runLint(deps(vault, store, model), { modelChecks: true });
    expect(report.error).toBeNull();
    expect(report.modelChecks).toMatchObject({ checked: 3, unverified: 1, unreadable: 0, unchecked: 0 });
    expect(await readContradictions(store)).toEqual([]);
    // Not asked again in this run: four pairs, four calls.
    expect(model.calls).toHaveLength(4);
    expect(humanLintReport(report, false)).toContain("1 not checked: no quote on the pages (asked again next time)");
    const next = new FakeModel(adaJudge);
    const again = await runLint(deps(vault, store, next), { modelChecks: true });
    expect(next.calls.map(titlesIn)).toEqual([["Ada", "Ada Lovelace"]]);
    expect(again.modelChecks).toMatchObject({ cached: 3, checked: 1, unverified: 0 });
    expect((await readContradictions(store)).map((r) => r.passages)).toEqual([[BORN_1815, BORN_1816]]);
  });

  it("stays within the token budget and says how many pairs it left out", async () => {
    const model = new FakeModel(adaJudge);
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), model, { tokenBudget: 1100 }), { modelChecks: true });
    expect(report.modelChecks?.overBudget).toBeGreaterThan(0);
    expect(report.modelChecks?.toCheck).toBe(model.calls.length);
    expect(model.calls.length).toBeLessThan(4);
  });

  it("asks first about pairs where a page changed since the last lint, then about new pairs, strongest first", async () => {
    const vault = new MemoryVault(wiki());
    const store = new MemoryStateStore();
    await runLint(deps(vault, store, new FakeModel(adaJudge)), { modelChecks: true });
    await vault.process("wiki/concepts/Analytical Engine.md", (t) => t.replace("A machine.", "A mechanical computer."));
    // A new page from notes/ada.md that links to the entity too: its pairs share more than the changed one.
    await vault.create("wiki/concepts/Notes on Ada.md", page("concept", "Notes on Ada", ["notes/ada.md"], "More about [[Ada Lovelace]] and her program."));
    const model = new FakeModel(adaJudge);
    const report = await runLint(deps(vault, store, model), { modelChecks: true });
    const asked = model.calls.map(titlesIn).map((t) => t.join(" + "));
    expect(asked[0]).toBe("Analytical Engine + First program");
    expect(asked.slice(1)).toContain("First program + Notes on Ada");
    expect(report.modelChecks).toMatchObject({ leftOut: [], beyondLimit: 0, broadGroups: [] });
  });

  it("never pairs every page of a group too large to mean anything (no n²), and says so", async () => {
    const many = Object.fromEntries(
      Array.from({ length: GROUP_LIMIT + 5 }, (_, i) => [`wiki/concepts/Fact ${i}.md`, page("concept", `Fact ${i}`, ["notes/big.md"], `Fact number ${i} about many things.`)]),
    );
    const model = new FakeModel(adaJudge);
    let estimate: ModelCheckEstimate | null = null;
    const report = await runLint(deps(new MemoryVault(wiki({ "notes/big.md": "Big.", ...many })), new MemoryStateStore(), model), {
      modelChecks: true,
      confirmModelChecks: (e) => ((estimate = e), true),
    });
    expect(report.modelChecks).toMatchObject({ pairs: 4, broadGroups: [`source notes/big.md (${GROUP_LIMIT + 5} pages)`] });
    expect(model.calls).toHaveLength(4);
    expect(estimate && estimateLine(estimate)).toContain(`not paired as too broad: source notes/big.md (${GROUP_LIMIT + 5} pages)`);
  });

  it("lists the pairs the token budget left out", async () => {
    const model = new FakeModel(adaJudge);
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), model, { tokenBudget: 1100 }), { modelChecks: true });
    const leftOut = report.modelChecks?.leftOut ?? [];
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut).toHaveLength(report.modelChecks?.overBudget ?? -1);
    const asked = new Set(model.calls.map(titlesIn).map((t) => t.join(" + ")));
    for (const pair of leftOut) expect(pair).toMatch(/^wiki\/.+\.md ↔ wiki\/.+\.md$/);
    expect(asked.size + leftOut.length).toBe(4);
  });

  it("shows the estimate before any call, and sends nothing when it is declined", async () => {
    const model = new FakeModel(adaJudge, { model: "claude-sonnet-4-5" });
    const seen: { estimate: ModelCheckEstimate; callsSoFar: number }[] = [];
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), model), {
      modelChecks: true,
      confirmModelChecks: (estimate) => {
        seen.push({ estimate, callsSoFar: model.calls.length });
        return false;
      },
    });
    expect(model.calls).toHaveLength(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.callsSoFar).toBe(0);
    expect(seen[0]?.estimate).toMatchObject({ model: "claude-sonnet-4-5", pairs: 4, toCheck: 4, outputTokens: 4 * REPLY_TOKENS });
    expect(seen[0]?.estimate.inputTokens).toBeGreaterThan(100);
    expect(seen[0]?.estimate.costUsd).toBeGreaterThan(0);
    expect(report.modelChecks).toMatchObject({ checked: 0, unchecked: 4 });
  });

  it("refuses a backend without a model, and a remote one in local-only mode, before any call; the exact checks still report", async () => {
    const none = new FakeModel(adaJudge, { model: null, name: "offline" });
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), none), { modelChecks: true });
    expect(report.error).toEqual({
      kind: "capability",
      message: 'The Offline backend has no language model; choose one under "Lint with" (or --provider) for the model checks.',
      pluginMessage: 'The Offline backend has no language model; choose one under "Lint with" in the settings for the model checks.',
    });
    expect(report.findings.length).toBeGreaterThan(0);

    const remote = new FakeModel(adaJudge, { isLocal: false, mode: "api" });
    const refused = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), remote, { localOnly: true }), { modelChecks: true });
    expect(refused.error?.kind).toBe("perimeter");
    expect(remote.calls).toHaveLength(0);
  });

  it("skips a pair whose prompt the server did not read whole, with why, and goes on: every pair in one bucket", async () => {
    const cutOnce = new FakeModel((messages, call) => {
      if (call === 1) throw new SynapseError("context", 'The OpenAI-compatible server read only 4080 of the prompt\'s ~5200 tokens. Set "Context window" to the window the server runs.');
      return adaJudge(messages, call);
    });
    const store = new MemoryStateStore();
    const vault = new MemoryVault(wiki());
    const report = await runLint(deps(vault, store, cutOnce), { modelChecks: true });
    expect(report.error).toBeNull();
    const m = report.modelChecks!;
    expect(m).toMatchObject({ toCheck: 4, checked: 3, tooLong: 1, unchecked: 0 });
    expect(m.checked + m.unreadable + m.unverified + m.tooLong + m.unchecked).toBe(m.toCheck);
    expect(m.tooLongReason).toMatch(/read only 4080/);
    expect(humanLintReport(report, false)).toMatch(/1 not checked: the pages did not fit the model's context window \(asked again next time\): The OpenAI-compatible server read only 4080/);
    // Not cached: the next lint asks about it again, and only it.
    const next = new FakeModel(adaJudge);
    await runLint(deps(vault, store, next), { modelChecks: true });
    expect(next.calls).toHaveLength(1);
  });

  it("a provider failure midway keeps what was learnt and reports the error", async () => {
    const failing = new FakeModel((messages, call) => {
      if (call === 2) throw Object.assign(new Error("The server is overloaded."), { status: 529 });
      return adaJudge(messages, call);
    });
    const store = new MemoryStateStore();
    const vault = new MemoryVault(wiki());
    const report = await runLint(deps(vault, store, failing), { modelChecks: true });
    expect(report.error).not.toBeNull();
    expect(report.modelChecks?.checked).toBe(1);
    const next = new FakeModel(adaJudge);
    await runLint(deps(vault, store, next), { modelChecks: true });
    expect(next.calls).toHaveLength(3);
  });
});

describe("lint's cost limit for the model checks", () => {
  const priced = (spent?: ConstructorParameters<typeof FakeModel>[2]) => new FakeModel(adaJudge, { model: "claude-sonnet-4-5", isLocal: false, mode: "api" }, spent);

  /** The estimate of every pair, nothing sent. */
  async function fullEstimate(vault: MemoryVault, store: MemoryStateStore): Promise<ModelCheckEstimate> {
    let estimate: ModelCheckEstimate | null = null;
    await runLint(deps(vault, store, priced()), { modelChecks: true, confirmModelChecks: (e) => ((estimate = e), false) });
    if (!estimate) throw new Error("no estimate");
    return estimate;
  }

  it("leaves out the pairs whose estimated cost would pass the limit, names them, and spends no more than the limit", async () => {
    const vault = new MemoryVault(wiki());
    const full = await fullEstimate(vault, new MemoryStateStore());
    expect(full).toMatchObject({ toCheck: 4, overCost: 0, costLimitUsd: 0 });
    const limit = (full.costUsd ?? 0) / 2;
    const model = priced();
    let seen: ModelCheckEstimate | null = null;
    const report = await runLint(deps(vault, new MemoryStateStore(), model, { lintCostLimitUsd: limit }), { modelChecks: true, confirmModelChecks: (e) => ((seen = e), true) });
    expect(report.error).toBeNull();
    const m = report.modelChecks;
    expect(m?.overCost).toBeGreaterThan(0);
    expect(m?.toCheck).toBeGreaterThan(0);
    expect((m?.toCheck ?? 0) + (m?.overCost ?? 0)).toBe(4);
    expect(m?.leftOut).toHaveLength(m?.overCost ?? -1);
    expect(model.calls).toHaveLength(m?.toCheck ?? -1);
    expect(m?.costUsd).toBeLessThanOrEqual(limit);
    expect(report.usage.costUsd).toBeLessThanOrEqual(limit);
    const asked = new Set(model.calls.map(titlesIn).map((t) => t.join(" + ")));
    for (const pair of m?.leftOut ?? []) {
      const titles = pair.split(" ↔ ").map((p) => p.replace(/^.*\//, "").replace(/\.md$/, "")).sort().join(" + ");
      expect(asked.has(titles)).toBe(false);
    }
    expect(seen && estimateLine(seen)).toContain(`${m?.overCost} more left out by the cost limit of $${limit.toFixed(4)}`);
  });

  it("spends its limit on the pairs where a page changed first", async () => {
    const vault = new MemoryVault(wiki());
    const store = new MemoryStateStore();
    await runLint(deps(vault, store, priced()), { modelChecks: true });
    await vault.process("wiki/concepts/Analytical Engine.md", (t) => t.replace("A machine.", "A mechanical computer."));
    await vault.create("wiki/concepts/Notes on Ada.md", page("concept", "Notes on Ada", ["notes/ada.md"], "More about [[Ada Lovelace]] and her program."));
    const full = await fullEstimate(vault, store);
    expect(full.toCheck).toBeGreaterThan(1);
    // Room for a little more than one pair of the size these pages make.
    const model = priced();
    const report = await runLint(deps(vault, store, model, { lintCostLimitUsd: (full.costUsd ?? 0) / full.toCheck * 1.1 }), { modelChecks: true });
    expect(model.calls.map(titlesIn).map((t) => t.join(" + "))).toEqual(["Analytical Engine + First program"]);
    expect(report.modelChecks?.overCost).toBe(full.toCheck - 1);
  });

  it("stops before a request whose estimate would pass the limit when replies cost more than estimated", async () => {
    const vault = new MemoryVault(wiki());
    const full = await fullEstimate(vault, new MemoryStateStore());
    const limit = (full.costUsd ?? 0) * 1.01;
    // Each reply reports far more input than the prompt's estimate: the plan fits, the spending does not.
    const model = priced({ inputTokens: 3000, outputTokens: 400 });
    const report = await runLint(deps(vault, new MemoryStateStore(), model, { lintCostLimitUsd: limit }), { modelChecks: true });
    expect(report.modelChecks).toMatchObject({ toCheck: 4, overCost: 0 });
    expect(model.calls.length).toBeGreaterThan(0);
    expect(model.calls.length).toBeLessThan(4);
    expect(report.modelChecks?.unchecked).toBe(4 - model.calls.length);
    expect(report.usage.costUsd).toBeLessThanOrEqual(limit);
  });

  it("caps every request at the output it reserves, and keeps the limit when every reply is as long as the cap allows", async () => {
    const vault = new MemoryVault(wiki());
    const full = await fullEstimate(vault, new MemoryStateStore());
    expect(full.outputTokens).toBe(4 * REPLY_TOKENS);
    // The longest reply the cap allows, and exactly the input the estimate expected.
    const longest = (messages: Message[], run: RunContext) => ({ inputTokens: estimateTokens(messages.map((m) => m.content).join("\n")) + 50, outputTokens: run.maxOutputTokens ?? 1_000_000 });
    for (const share of [0.6, 1]) {
      const limit = (full.costUsd ?? 0) * share;
      const model = priced(longest);
      const report = await runLint(deps(vault, new MemoryStateStore(), model, { lintCostLimitUsd: limit }), { modelChecks: true });
      expect(report.error).toBeNull();
      expect(model.outputCaps.length).toBeGreaterThan(0);
      expect(model.outputCaps.every((cap) => cap === REPLY_TOKENS)).toBe(true);
      expect(report.usage.outputTokens).toBe(model.calls.length * REPLY_TOKENS);
      expect(report.usage.costUsd).toBeLessThanOrEqual(limit);
      expect(model.calls.length).toBe(share === 1 ? 4 : report.modelChecks?.toCheck);
    }
  });

  it("counts each attempt whose usage never arrived (a cut stream, a retried request) as its whole reservation", async () => {
    const vault = new MemoryVault(wiki());
    const full = await fullEstimate(vault, new MemoryStateStore());
    const limit = (full.costUsd ?? 0) * 1.001;
    /** Each request is retried once inside the provider; `reported` says whether the attempt that succeeded reported usage. */
    const retriedOnce = (reported: boolean) =>
      priced((_messages, run) => {
        run.progress?.({ type: "retry", attempt: 2, delayMs: 0, reason: "transport" });
        return reported ? { inputTokens: 0, outputTokens: 0 } : null;
      });
    // Nothing reported: two attempts a request, each its whole reservation, so half the pairs fit.
    const silent = retriedOnce(false);
    const report = await runLint(deps(vault, new MemoryStateStore(), silent, { lintCostLimitUsd: limit }), { modelChecks: true });
    expect(report.error).toBeNull();
    expect(report.modelChecks).toMatchObject({ toCheck: 4, overCost: 0, checked: 2, unchecked: 2 });
    expect(silent.calls).toHaveLength(2);
    // The attempt that reported counts as reported (here: nothing); only the lost one is reserved.
    const reporting = retriedOnce(true);
    const again = await runLint(deps(vault, new MemoryStateStore(), reporting, { lintCostLimitUsd: limit }), { modelChecks: true });
    expect(reporting.calls).toHaveLength(4);
    expect(again.modelChecks).toMatchObject({ checked: 4, unchecked: 0 });
  });

  it("refuses a remote model with no known price while a limit is set, naming the setting, before any call", async () => {
    const unpriced = new FakeModel(adaJudge, { model: "mystery-model", isLocal: false, mode: "api" });
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), unpriced, { lintCostLimitUsd: 0.5 }), { modelChecks: true });
    expect(unpriced.calls).toHaveLength(0);
    expect(report.error?.kind).toBe("config");
    expect(report.error?.message).toContain('"Lint cost limit (USD)" of $0.50');
    expect(report.error?.message).toContain("mystery-model");
    expect(report.findings.length).toBeGreaterThan(0);
    // Without a limit the same backend runs, its cost unknown.
    const free = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), unpriced), { modelChecks: true });
    expect(free.error).toBeNull();
    expect(free.usage.costUsd).toBeNull();
  });

  it("treats a model run on this machine with no price as free: a limit leaves nothing out, and nothing needs saying", async () => {
    const local = new FakeModel(adaJudge, { model: "llama3.2", isLocal: true, mode: "local" });
    let seen: ModelCheckEstimate | null = null;
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), local, { lintCostLimitUsd: 0.0001 }), { modelChecks: true, confirmModelChecks: (e) => ((seen = e), true) });
    expect(report.error).toBeNull();
    expect(report.modelChecks).toMatchObject({ toCheck: 4, overCost: 0, checked: 4, treatedAsFree: false });
    expect(seen && estimateLine(seen)).toMatch(/out, free \(runs on this computer\)\.$/);
    expect(seen && estimateLine(seen)).not.toContain("no price");
    // What the calls spent says the same: free, not of unknown cost.
    expect(spentLine(report.usage)).toBe(`Used ${report.usage.inputTokens.toLocaleString("en-US")} tokens in and ${report.usage.outputTokens.toLocaleString("en-US")} out, free (runs on this computer).`);
  });

  it("counts an API server on this machine with no price as free, but says so: it may be a proxy to a paid model", async () => {
    const proxy = new FakeModel(adaJudge, { model: "my-proxied-model", isLocal: true, mode: "api" });
    let seen: ModelCheckEstimate | null = null;
    const report = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), proxy, { lintCostLimitUsd: 0.0001 }), { modelChecks: true, confirmModelChecks: (e) => ((seen = e), true) });
    expect(report.error).toBeNull();
    expect(report.modelChecks).toMatchObject({ toCheck: 4, overCost: 0, checked: 4, treatedAsFree: true, costUsd: null });
    expect(seen && estimateLine(seen)).toContain("free (runs on this computer), so the cost limit of $0.0001 counts nothing: no price is known for my-proxied-model");
    // Without a limit there is nothing to hold, so nothing is treated as anything.
    const unlimited = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), proxy), { modelChecks: true });
    expect(unlimited.modelChecks?.treatedAsFree).toBe(false);
    // With its price known it is held to the limit like any priced model.
    const priced = await runLint(deps(new MemoryVault(wiki()), new MemoryStateStore(), proxy, { lintCostLimitUsd: 0.0001, prices: { "my-proxied-model": { input: 3, output: 15 } } }), { modelChecks: true });
    expect(priced.modelChecks).toMatchObject({ treatedAsFree: false, toCheck: 0, overCost: 4 });
  });
});
