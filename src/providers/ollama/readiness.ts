/**
 * The Ollama readiness check: is the server there (`/api/version`), which models are installed
 * (`/api/tags`), and what each can do (`/api/show`). It never pulls anything. It cross-checks the
 * user's claims (the configured model, a declared tools capability, the embedding model) against
 * what the models report, and says what to fix in words.
 */
import { rephrased, type SynapseError } from "../../core/errors";
import { createRunContext, deadlineSignal } from "../../core/run-context";
import { problemFields, type ReadinessReport, type WordedProblem } from "../../core/readiness";
import type { OllamaConnect } from "./client";
import { windowCeiling } from "./context-window";
import { OllamaShowReply, OllamaTagsReply, OllamaVersionReply, contextLengthOf, sameModel } from "./envelope";
import { mapOllamaError } from "./errors";

export interface OllamaReadinessInput {
  readonly connect: OllamaConnect;
  readonly host: string;
  readonly isLocal: boolean;
  readonly model: string;
  readonly embeddingModel: string;
  readonly declaresTools: boolean;
  /** The largest window a request may ask for ("Context window", or a num_ctx pinned in the options). */
  readonly contextWindow: number;
  readonly timeoutMs: number;
  /** Models beyond this many are listed without asking /api/show about each. */
  readonly showLimit?: number;
  /** Sentences about ignored advanced options. */
  readonly warnings?: readonly string[];
}

type Model = { name: string; capabilities: string[]; contextLength: number };

async function request<T>(input: OllamaReadinessInput, model: string, call: (connect: OllamaConnect, signal: AbortSignal) => Promise<T>): Promise<T | SynapseError> {
  const { signal, dispose } = deadlineSignal(createRunContext(), input.timeoutMs);
  try {
    return await call(input.connect, signal);
  } catch (error) {
    return mapOllamaError(error, { host: input.host, model });
  } finally {
    dispose();
  }
}

function failed(value: unknown): value is SynapseError {
  return value instanceof Error;
}

/** The window requests will run in: without asking for one, Ollama would use its own small default. */
function windowInUse(setting: number, modelContext: number): string {
  const window = windowCeiling(setting, modelContext);
  const bound = modelContext > 0 && modelContext < setting ? `the model's own limit; "Context window" is ${setting}` : `setting "Context window"`;
  return `Context window in use: each request asks for what it needs, up to ${window} tokens (${bound}).`;
}

export async function ollamaReadiness(input: OllamaReadinessInput): Promise<ReadinessReport> {
  const details: string[] = [];
  const problems: (string | WordedProblem)[] = [];
  const version = await request(input, input.model, async (connect, signal) => (await connect({ signal })).version());
  if (failed(version)) {
    return {
      provider: "ollama",
      ok: false,
      reachable: false,
      version: null,
      models: [],
      modelPresent: null,
      details,
      // Starting Ollama is the same on both surfaces; where its address is set is not.
      ...problemFields([rephrased(version, (m) => `${m} Start it with \`ollama serve\` or open the Ollama app.`)]),
    };
  }
  const parsedVersion = OllamaVersionReply.safeParse(version);
  details.push(`Ollama ${parsedVersion.success ? parsedVersion.data.version : "(unknown version)"} answers at ${input.host}.`);
  details.push(
    input.isLocal
      ? "The host is this machine, so notes stay here (allowed in local-only mode)."
      : "The host is not this machine: notes are sent over the network, and local-only mode refuses it.",
  );

  const tags = await request(input, input.model, async (connect, signal) => (await connect({ signal })).list());
  const parsedTags = failed(tags) ? null : OllamaTagsReply.safeParse(tags);
  if (failed(tags) || !parsedTags?.success) {
    problems.push(failed(tags) ? tags : "Ollama's model list (/api/tags) was not in the expected format.");
    return { provider: "ollama", ok: false, reachable: true, version: parsedVersion.success ? parsedVersion.data.version : null, models: [], modelPresent: null, details, ...problemFields(problems) };
  }

  const limit = input.showLimit ?? 25;
  const models: Model[] = [];
  for (const [index, entry] of parsedTags.data.models.entries()) {
    if (index >= limit) {
      models.push({ name: entry.name, capabilities: [], contextLength: 0 });
      continue;
    }
    const show = await request(input, entry.name, async (connect, signal) => (await connect({ signal })).show({ model: entry.name }));
    const parsed = failed(show) ? null : OllamaShowReply.safeParse(show);
    models.push(
      parsed?.success
        ? { name: entry.name, capabilities: parsed.data.capabilities ?? [], contextLength: contextLengthOf(parsed.data) }
        : { name: entry.name, capabilities: [], contextLength: 0 },
    );
  }
  if (parsedTags.data.models.length > limit) details.push(`Capabilities are shown for the first ${limit} models only.`);
  details.push(models.length === 0 ? "No models are installed." : `${models.length} model${models.length === 1 ? " is" : "s are"} installed.`);

  const installed = models.map((m) => m.name).join(", ") || "none";
  let modelPresent: boolean | null = null;
  let contextWindow: number | null = null;
  if (!input.model) {
    problems.push(`No model is configured; pick one of the installed models (${installed}).`);
  } else {
    const found = models.find((m) => sameModel(m.name, input.model));
    modelPresent = found !== undefined;
    if (!found) {
      problems.push(`Ollama has no model "${input.model}" installed; run \`ollama pull ${input.model}\` or pick an installed model (${installed}).`);
    } else {
      const caps = found.capabilities;
      details.push(`${found.name}: ${caps.length ? caps.join(", ") : "no reported capabilities"}${found.contextLength ? `, context ${found.contextLength} tokens` : ""}.`);
      details.push(windowInUse(input.contextWindow, found.contextLength));
      contextWindow = windowCeiling(input.contextWindow, found.contextLength);
      if (caps.length > 0 && !caps.includes("completion")) {
        problems.push(`"${found.name}" cannot generate text (it reports ${caps.join(", ")}); pick a chat model.`);
      }
      if (input.declaresTools && caps.length > 0 && !caps.includes("tools")) {
        problems.push(`The settings say "${found.name}" supports tools, but the model reports no tool support; turn that setting off or pick a model with tools.`);
      } else if (!input.declaresTools && caps.includes("tools")) {
        details.push(`"${found.name}" reports tool support; you may declare it in the settings.`);
      }
    }
  }
  if (input.embeddingModel) {
    const embedder = models.find((m) => sameModel(m.name, input.embeddingModel));
    if (!embedder) {
      problems.push(`The embedding model "${input.embeddingModel}" is not installed; run \`ollama pull ${input.embeddingModel}\`.`);
    } else if (embedder.capabilities.length > 0 && !embedder.capabilities.includes("embedding")) {
      problems.push(`"${embedder.name}" does not report embedding support; pick an embedding model such as nomic-embed-text.`);
    } else {
      details.push(`Embeddings come from "${embedder.name}".`);
    }
  }
  details.push(...(input.warnings ?? []));
  return {
    provider: "ollama",
    ok: problems.length === 0,
    reachable: true,
    version: parsedVersion.success ? parsedVersion.data.version : null,
    models: models.map((m) => ({ name: m.name, capabilities: m.capabilities })),
    modelPresent,
    details,
    ...problemFields(problems),
    contextWindow,
  };
}
