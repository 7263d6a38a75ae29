/**
 * The local profile: an Ollama server, a chat model picked from the models it reports, and an
 * embedding model. The model lists fill in from the server on "Load models" or "Test connection";
 * a configured model the server does not report stays visible, marked as such.
 */
import type { DropdownComponent } from "obsidian";
import { messageOn } from "../../core/errors";
import { problemsOn, type ReadinessReport } from "../../core/readiness";
import { sameModel } from "../../providers/ollama/envelope";
import type { Settings } from "../../settings/schema";
import { numberRow, save, showProblem, textRow, type SettingRow, type SettingSection, type SettingsContext } from "./rows";
import { testConnectionRow } from "./test-connection";

type Models = ReadinessReport["models"];

/** The options of a model picker: what the server reports (filtered), plus the current choice. */
export function modelOptions(models: Models, current: string, filter: (m: Models[number]) => boolean): Record<string, string> {
  const options: Record<string, string> = { "": models.length === 0 ? "Load the models first" : "Choose a model" };
  for (const model of models.filter(filter)) options[model.name] = model.name;
  // Ollama reads "llama3.2" as "llama3.2:latest": the configured name stands for the one the server lists.
  const listed = models.find((m) => sameModel(m.name, current));
  if (current !== "" && listed && !(current in options)) {
    options[current] = listed.name;
    delete options[listed.name];
  } else if (current !== "" && !(current in options)) {
    options[current] = models.length === 0 ? current : `${current} (not on this server)`;
  }
  return options;
}

const isEmbedding = (m: Models[number]) => m.capabilities.includes("embedding");
/** Chat models: everything but embedding-only models (when the server says what each can do). */
const isChat = (m: Models[number]) => m.capabilities.length === 0 || m.capabilities.includes("completion");
/** Embedding models: those that say so; if the server says nothing, offer them all. */
const embeddingFilter = (models: Models) => (models.some((m) => m.capabilities.length > 0) ? isEmbedding : () => true);

export function ollamaSection(ctx: SettingsContext): SettingSection {
  let models: Models = [];
  const pickers: (() => void)[] = [];
  const loaded = (report: ReadinessReport) => {
    if (!report.reachable) return;
    models = report.models;
    for (const refresh of pickers) refresh();
  };

  const picker = (
    name: string,
    desc: string,
    get: (s: Settings) => string,
    set: (draft: Settings, value: string) => void,
    filter: () => (m: Models[number]) => boolean,
  ): SettingRow => ({
    name,
    desc,
    build: (setting) => {
      let dropdown: DropdownComponent | null = null;
      const fill = () => {
        if (!dropdown) return;
        dropdown.selectEl.empty();
        dropdown.addOptions(modelOptions(models, get(ctx.store.settings), filter()));
        dropdown.selectEl.value = get(ctx.store.settings);
      };
      setting.addDropdown((d) => {
        dropdown = d;
        fill();
        d.onChange((value) => void save(setting, ctx.store, (draft) => set(draft, value)));
      });
      setting.addExtraButton((button) =>
        button
          .setIcon("refresh-cw")
          .setTooltip("Load the models the server reports")
          .onClick(async () => {
            const report = await ctx.checkReadiness("ollama").catch((error: unknown) => error);
            if (report instanceof Error || !(report as ReadinessReport).reachable) {
              const problems = report instanceof Error ? [messageOn(report, "plugin")] : problemsOn(report as ReadinessReport, "plugin");
              showProblem(setting, problems[0] ?? "The server did not answer.");
              return;
            }
            showProblem(setting, null);
            loaded(report as ReadinessReport);
          }),
      );
      pickers.push(fill);
    },
  });

  return {
    heading: "Local: Ollama",
    rows: [
      textRow(
        ctx,
        "Host",
        "Where the Ollama server listens; notes stay on this machine only while it is a local address.",
        (s) => s.profiles.ollama.host,
        (d, v) => (d.profiles.ollama.host = v),
        "http://127.0.0.1:11434",
      ),
      picker(
        "Model",
        "The chat model that writes the pages, pulled first with ollama pull (Synapse never downloads models).",
        (s) => s.profiles.ollama.model,
        (d, v) => (d.profiles.ollama.model = v),
        () => isChat,
      ),
      picker(
        "Embedding model",
        "The model that embeds notes for vector search, such as nomic-embed-text.",
        (s) => s.profiles.ollama.embeddingModel,
        (d, v) => (d.profiles.ollama.embeddingModel = v),
        () => embeddingFilter(models),
      ),
      numberRow(
        ctx,
        "Max output tokens",
        "The most tokens one reply may have (num_predict); 0 lets each step ask for its own.",
        { min: 0, integer: true },
        (s) => s.profiles.ollama.maxTokens,
        (d, v) => (d.profiles.ollama.maxTokens = v),
      ),
      numberRow(
        ctx,
        "Context window (tokens)",
        "The most tokens a request may ask Ollama to hold, prompt and reply together; 8,192 takes about 0.5–1 GB beyond a 7–8B model.",
        { min: 1024, integer: true },
        (s) => s.profiles.ollama.contextWindow,
        (d, v) => (d.profiles.ollama.contextWindow = v),
      ),
      testConnectionRow(ctx, "ollama", loaded),
    ],
  };
}
