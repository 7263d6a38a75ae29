/**
 * How many tokens a server counts for what Synapse estimates, per backend, server and model. The
 * window estimate (chars/3 of the prompt's text, `textTokens`) holds for most prose but not for every script or model: a CJK or
 * code-heavy note can count 1.6× as many tokens, and a window sized by the estimate then cuts the
 * prompt (Ollama) or is refused (llama-server, vLLM). Each reply that reports its prompt's real
 * count (Ollama `prompt_eval_count`, OpenAI-compatible `usage.prompt_tokens`) sets the ratio the
 * next requests are sized and packed with. In memory for the session, shared by the providers the
 * factory builds for each operation; never below 1 (an estimate on the high side is the safe
 * side: a cached prompt may report fewer tokens than it has) and never above MAX_RATIO.
 */

/** A count this far above the estimate is not a tokenizer's doing: it is not learned past it. */
export const MAX_RATIO = 4;
/** Servers and models remembered; the oldest is forgotten past this. */
const MAX_KEYS = 32;

const ratios = new Map<string, number>();

export class TokenCalibration {
  constructor(private readonly key: string) {}

  /** Tokens counted per token estimated, 1 until a reply says otherwise. */
  get ratio(): number {
    return ratios.get(this.key) ?? 1;
  }

  /** Learns from a reply: the last count read is what the next request is sized by. */
  observe(estimate: number, counted: number | null | undefined): void {
    if (typeof counted !== "number" || !Number.isFinite(counted) || counted <= 0 || estimate <= 0) return;
    const ratio = Math.min(MAX_RATIO, Math.max(1, counted / estimate));
    ratios.delete(this.key);
    ratios.set(this.key, ratio);
    if (ratios.size > MAX_KEYS) {
      const oldest = ratios.keys().next().value;
      if (oldest !== undefined) ratios.delete(oldest);
    }
  }

  /**
   * Learns a floor: a prompt that filled its window counts at least `counted`, so the ratio is not
   * lowered by it (its real count is unknown).
   */
  observeAtLeast(estimate: number, counted: number): void {
    if (estimate > 0 && counted / estimate > this.ratio) this.observe(estimate, counted);
  }
}

/** The calibration of one backend's model on one server. */
export function calibrationFor(backend: string, where: string, model: string): TokenCalibration {
  return new TokenCalibration(`${backend}\u0000${where}\u0000${model}`);
}
