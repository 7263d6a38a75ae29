/**
 * One ingest against a model server paced like a CPU: the scripted Ollama server reading the prompt
 * at PROMPT_RATE tokens/s and writing at OUTPUT_RATE tokens/s, one request at a time. Two figures:
 * - the ingest's wall time against the pure generation time of the tokens it needed (each request's
 *   prompt reading and writing at those rates, as the server counted them): what Synapse adds by
 *   waiting, serialising or re-asking (target ≤ 1.3×);
 * - the prompt tokens sent again on a run whose replies are all valid (target 0): any request past
 *   the analysis and the pages is a prompt re-sent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { orchestrate } from "../src/core/orchestrator";
import { createRunContext } from "../src/core/run-context";
import { createProvider } from "../src/providers/factory";
import { SettingsSchema } from "../src/settings/schema";
import { FIXTURE_NOTES } from "../test/helpers/fixture-notes";
import { startScriptedServer } from "../test/helpers/scripted-server";
import type { BenchResult } from "./stats";

const OUTPUT_RATE = 20;
const PROMPT_RATE = 400;
const NOTE = join(FIXTURE_NOTES, "en/Bases/Introduction to Bases.md");
const FIXTURES = new URL("../test/fixtures/providers/", import.meta.url);
const reply = (name: string) => ({ kind: "content" as const, text: readFileSync(new URL(name, FIXTURES), "utf8") });

export async function benchLocalPace(): Promise<BenchResult[]> {
  const server = await startScriptedServer({
    protocol: "ollama",
    script: [reply("bases-analysis.json"), reply("bases-pages.json")],
    models: [{ name: "qwen2.5:7b", capabilities: ["completion"], contextLength: 32768 }],
    tokensPerSecond: OUTPUT_RATE,
    promptTokensPerSecond: PROMPT_RATE,
  });
  try {
    const settings = SettingsSchema.parse({ operations: { ingest: "ollama", query: "ollama", lint: "ollama" }, profiles: { ollama: { host: server.url, model: "qwen2.5:7b" } } });
    const provider = createProvider("ollama", { settings, secrets: { get: () => null }, fetch: (i, init) => fetch(i, init), streamingFetch: (i, init) => fetch(i, init) });
    const text = readFileSync(NOTE, "utf8");
    const run = createRunContext({ source: { path: "notes/Introduction to Bases.md", text }, timeoutMs: settings.runTimeoutSeconds * 1000 });
    const started = performance.now();
    const result = await orchestrate(provider, { maxIter: settings.maxIter, tokenBudget: settings.tokenBudget, retrievalContext: "", vaultContext: "" }, run);
    const wall = performance.now() - started;
    const calls = server.modelRequests();
    const pure = calls.reduce((ms, r) => ms + ((r.promptEvalCount ?? 0) * 1000) / PROMPT_RATE, 0) + (run.usage.totals().outputTokens * 1000) / OUTPUT_RATE;
    const resent = calls.slice(2).reduce((n, r) => n + (r.promptTokens ?? 0), 0);
    const ratio = wall / Math.max(1, pure);
    return [
      { name: "local pace: ingest wall time / pure generation time", value: ratio, unit: "×", target: "≤ 1.3×", pass: ratio <= 1.3, note: `${(wall / 1000).toFixed(1)} s against ${(pure / 1000).toFixed(1)} s at ${OUTPUT_RATE} tokens/s out, ${PROMPT_RATE} tokens/s prompt; ${calls.length} requests, converged: ${result.converged}` },
      { name: "local pace: prompt tokens re-sent per ingest", value: resent, unit: "tokens", target: "0", pass: resent === 0 && result.converged },
    ];
  } finally {
    await server.close();
  }
}
