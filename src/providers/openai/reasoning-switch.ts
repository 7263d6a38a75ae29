/**
 * Reasoning is output a structured step does not need: on a CPU a Qwen3 or DeepSeek-R1 model may
 * think for minutes and spend the reply's whole output limit before it writes the JSON. Where the
 * server documents a switch, structured requests turn it off (answers to questions keep it; their
 * thinking is filtered out of the answer):
 * - llama-server and vLLM pass `chat_template_kwargs` to the model's chat template; Qwen3's (and
 *   templates modelled on it) read `enable_thinking`, and a template that does not simply ignores it.
 * - Ollama's /v1 takes `reasoning_effort`, with "none" for thinking off; sent only to a model whose
 *   /api/show lists "thinking". gpt-oss knows levels only (low, medium, high), so it is asked for "low".
 * - LM Studio documents no per-request switch, and hosted APIs are left as they are.
 * The user's advanced options come after these, so a choice made there wins.
 */
import type { ReportedWindow } from "./context-probe";

export function reasoningSwitch(reported: ReportedWindow | null, model: string): Record<string, unknown> {
  switch (reported?.source) {
    case "llama-server":
    case "vLLM":
      return { chat_template_kwargs: { enable_thinking: false } };
    case "Ollama":
      if (!reported.thinks) return {};
      return { reasoning_effort: /(^|\/)gpt-oss/i.test(model) ? "low" : "none" };
    default:
      return {};
  }
}
