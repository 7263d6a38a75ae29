/**
 * "Ask the wiki" in each of its states, over the example vault ingested by the Offline backend:
 * the answers, their citations and the saved page come from real questions to that wiki; waiting,
 * streaming and the error hold a real run at that point (a controller that waits, a server that is
 * not there).
 */
import { WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import type { AskReport } from "../../../src/query/ask";
import { QUERY_VIEW_TYPE, QueryView, type QueryController } from "../../../src/ui/query-view";
import { ingestedRig, type Rig } from "../rig";
import type { Rendered, Surface } from "../surface";

const QUESTION = "Who wrote the first program for the Analytical Engine?";

let memo: Promise<Rig> | null = null;
const wiki = () => (memo ??= ingestedRig({ seams: { review: (plan) => Promise.resolve(plan.changes.map((c) => c.path)), streaming: true } }));

async function viewWith(controller: (real: QueryController) => QueryController): Promise<QueryView> {
  const { harness } = await wiki();
  const real = harness.plugin.query;
  if (!real) throw new Error("The plugin has no query service");
  await real.clear();
  const view = new QueryView(WorkspaceLeaf.create2__(harness.app).asOriginalType3__(), controller(real));
  await view.onOpen();
  return view;
}

const shown = (view: QueryView): Rendered => ({ title: "Ask the wiki", content: view.contentEl });

/** Lets the view's renders (timers, promises) run until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => window.setTimeout(resolve, 10));
  if (!done()) throw new Error("The view never reached the state to show");
}

function typed(view: QueryView, question: string): void {
  const box = view.contentEl.querySelector("textarea");
  if (!box) throw new Error("No question box");
  box.value = question;
  box.dispatchEvent(new Event("input"));
}

/** A controller whose answers never finish: the view stays as it is mid-run, after `pieces` of the real answer arrived. */
function heldAfter(pieces: number): (real: QueryController) => QueryController {
  return (real) => ({
    ...bound(real),
    ask: async (question, options) => {
      const report = await real.ask(question, { ...options, onText: () => undefined });
      for (const piece of words(report.answer).slice(0, pieces)) options.onText(piece);
      return new Promise<AskReport>(() => undefined);
    },
  });
}

function bound(real: QueryController): QueryController {
  return { ask: real.ask.bind(real), save: real.save.bind(real), history: real.history.bind(real), clear: real.clear.bind(real), open: real.open.bind(real) };
}

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

async function answered(change?: (report: AskReport) => AskReport): Promise<QueryView> {
  const view = await viewWith((real) => ({ ...bound(real), ask: async (q, o) => (change ?? ((r) => r))(await real.ask(q, o)) }));
  typed(view, QUESTION);
  await view.ask(false);
  return view;
}

export const surfaces: readonly Surface[] = [
  { name: "ask-empty", frame: "side-view", viewType: QUERY_VIEW_TYPE, render: async () => shown(await viewWith(bound)) },
  {
    name: "ask-waiting",
    frame: "side-view",
    viewType: QUERY_VIEW_TYPE,
    render: async () => {
      const view = await viewWith(heldAfter(0));
      typed(view, QUESTION);
      void view.ask(false);
      await until(() => view.contentEl.querySelector(".synapse-query-answer") !== null);
      return shown(view);
    },
  },
  {
    name: "ask-streaming",
    frame: "side-view",
    viewType: QUERY_VIEW_TYPE,
    render: async () => {
      const view = await viewWith(heldAfter(14));
      typed(view, QUESTION);
      void view.ask(false);
      await until(() => (view.contentEl.querySelector(".synapse-query-answer")?.textContent ?? "").length > 20);
      return shown(view);
    },
  },
  { name: "ask-answered", frame: "side-view", viewType: QUERY_VIEW_TYPE, render: async () => shown(await answered()) },
  {
    name: "ask-unverified",
    frame: "side-view",
    viewType: QUERY_VIEW_TYPE,
    // The same answer as a model that cited a page it was never sent would give it.
    render: async () =>
      shown(
        await answered((r) => ({
          ...r,
          citations: r.citations.map((c) => ({ ...c, verified: false, reason: "that page was not among the passages sent" })),
          unverifiedWarning: "none of its citations names a passage that was sent, so check it against your notes.",
        })),
      ),
  },
  {
    name: "ask-error",
    frame: "side-view",
    viewType: QUERY_VIEW_TYPE,
    render: async () => {
      // A real question, over the ingested example vault, to an Ollama server that is not running.
      const r = await ingestedRig({ data: { version: 1, operations: { query: "ollama" }, profiles: { ollama: { host: "http://127.0.0.1:9", model: "llama3.2" } } } });
      const real = r.harness.plugin.query;
      if (!real) throw new Error("The plugin has no query service");
      const view = new QueryView(WorkspaceLeaf.create2__(r.harness.app).asOriginalType3__(), bound(real));
      await view.onOpen();
      typed(view, QUESTION);
      await view.ask(false);
      return shown(view);
    },
  },
  {
    name: "ask-stopped",
    frame: "side-view",
    viewType: QUERY_VIEW_TYPE,
    render: async () => {
      const view = await viewWith((real) => ({ ...bound(real), ask: (q, o) => new Promise<AskReport>((resolve) => o.signal.addEventListener("abort", () => void real.ask(q, { ...o, signal: AbortSignal.abort() }).then(resolve))) }));
      typed(view, QUESTION);
      const asked = view.ask(false);
      await until(() => [...view.contentEl.querySelectorAll("button")].some((b) => b.textContent === "Stop" && b.style.display !== "none"));
      [...view.contentEl.querySelectorAll("button")].find((b) => b.textContent === "Stop")?.click();
      await asked;
      return shown(view);
    },
  },
  {
    name: "ask-saved",
    frame: "side-view",
    viewType: QUERY_VIEW_TYPE,
    render: async () => {
      const view = await answered();
      const save = [...view.contentEl.querySelectorAll("button")].find((b) => /^Save/.test(b.textContent ?? ""));
      if (!save) throw new Error("No save button");
      save.click();
      await until(() => view.contentEl.querySelector(".synapse-query-saved a") !== null);
      return shown(view);
    },
  },
];
