/**
 * The real llama.cpp runtime (node-llama-cpp's prebuilt CPU binary) with the tiny random model,
 * loaded once per test file. Where the runtime cannot load (no prebuilt binary for the platform)
 * the suite skips and says why in one line, instead of failing a machine it cannot run on.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel } from "node-llama-cpp";
import { writeTinyGguf } from "./tiny-gguf";

/** The seed of the tiny model's weights: the same file on every run. */
export const MODEL_SEED = 23;

export type Runtime = { readonly ok: true; readonly llama: Llama; readonly model: LlamaModel; readonly modelPath: string } | { readonly ok: false; readonly reason: string };

let loading: Promise<Runtime> | null = null;

async function load(): Promise<Runtime> {
  try {
    // Never build or download: CI reaches the npm registry only, and the binary comes from it.
    // One thread: on a shared 2-core machine llama.cpp's spinning worker threads run ~100x slower.
    const llama = await getLlama({ gpu: false, build: "never", usePrebuiltBinaries: true, skipDownload: true, progressLogs: false, maxThreads: 1, logLevel: LlamaLogLevel.error });
    const modelPath = writeTinyGguf(join(mkdtempSync(join(tmpdir(), "synapse-llama-")), "tiny-random.gguf"), MODEL_SEED);
    const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
    return { ok: true, llama, model, modelPath };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split("\n")[0] ?? String(error) : String(error) };
  }
}

/** The runtime and model, loaded on first use; a failure to load is a reason, never a throw. */
export function loadRuntime(): Promise<Runtime> {
  loading ??= load();
  return loading;
}

/** The one line a skipped suite prints. */
export function skipNotice(runtime: Runtime): string | null {
  return runtime.ok ? null : `llama.cpp runtime suite skipped: node-llama-cpp could not load here (${runtime.reason}).`;
}
