/**
 * Run-scoped usage accounting. Providers record what each call cost here; domain objects
 * (pages, analyses) never carry billing data.
 */
export interface UsageRecord {
  readonly provider: string;
  readonly model: string | null;
  readonly operation: "analyze" | "generate" | "chat" | "agent" | "embed";
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Set when the provider reported a cost itself (the agent SDK does). */
  readonly costUsd?: number;
  /**
   * The request never returned usage (timed out or cancelled while the server worked on it): its
   * tokens are Synapse's estimate of the prompt (and of what arrived of the reply), not a count.
   */
  readonly estimated?: boolean;
  /** The reply came from a provider's batch API (a batch ingest): priced at its batch discount (pricing.ts). */
  readonly mode?: "batch";
  /**
   * Of `inputTokens`, those read from the provider's prompt cache (Anthropic
   * `cache_read_input_tokens`, OpenAI `prompt_tokens_details.cached_tokens`), billed at the
   * cached rate. Absent: none.
   */
  readonly cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the prompt cache (Anthropic `cache_creation_input_tokens`), billed at the write rate. Absent: none. */
  readonly cacheWriteTokens?: number;
}

/** Input tokens that went through the prompt cache, each kind a part of the input count. */
export interface CacheTokens {
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export const NO_CACHE: CacheTokens = { cacheReadTokens: 0, cacheWriteTokens: 0 };

/** What an operation spent, as reports show it: tokens, and the cost when the model has a price (else null). */
export interface UsageSummary {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
  /**
   * Every call counted here went to a backend on this computer (`isLocal`), so an unpriced run is
   * free rather than of unknown cost. Absent: not known to be local.
   */
  readonly local?: boolean;
}

export const NO_USAGE: UsageSummary = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

/**
 * Two operations' spending together; the cost is unknown (null) when either's is. The sum is local
 * when both are, a side that spent no tokens not counting (a lint run whose re-ingest fix ran on
 * Ollama is free even though its model checks were skipped).
 */
export function addUsage(a: UsageSummary, b: UsageSummary): UsageSummary {
  const spent = (u: UsageSummary) => u.inputTokens + u.outputTokens > 0;
  const local = !spent(a) ? b.local : !spent(b) ? a.local : a.local === true && b.local === true;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    ...(local ? { local } : {}),
  };
}

export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly calls: number;
  /** Calls among them whose tokens are estimated, not reported by the server. */
  readonly estimatedCalls: number;
}

export class UsageAccumulator {
  private readonly records: UsageRecord[] = [];

  record(entry: UsageRecord): void {
    this.records.push(Object.freeze({ ...entry }));
  }

  get entries(): readonly UsageRecord[] {
    return this.records;
  }

  totals(): UsageTotals {
    let inputTokens = 0;
    let outputTokens = 0;
    let estimatedCalls = 0;
    for (const r of this.records) {
      inputTokens += r.inputTokens;
      outputTokens += r.outputTokens;
      if (r.estimated) estimatedCalls += 1;
    }
    return { inputTokens, outputTokens, calls: this.records.length, estimatedCalls };
  }

  /** Totals per provider name, for the per-run summary. */
  byProvider(): Map<string, UsageTotals> {
    const out = new Map<string, UsageTotals>();
    for (const r of this.records) {
      const t = out.get(r.provider) ?? { inputTokens: 0, outputTokens: 0, calls: 0, estimatedCalls: 0 };
      out.set(r.provider, {
        inputTokens: t.inputTokens + r.inputTokens,
        outputTokens: t.outputTokens + r.outputTokens,
        calls: t.calls + 1,
        estimatedCalls: t.estimatedCalls + (r.estimated ? 1 : 0),
      });
    }
    return out;
  }

  /** The input tokens read from and written to the prompt cache, over every call (both part of `totals().inputTokens`). */
  cache(): CacheTokens {
    let cacheReadTokens = 0;
    let cacheWriteTokens = 0;
    for (const r of this.records) {
      cacheReadTokens += r.cacheReadTokens ?? 0;
      cacheWriteTokens += r.cacheWriteTokens ?? 0;
    }
    return { cacheReadTokens, cacheWriteTokens };
  }

  totalTokens(): number {
    const t = this.totals();
    return t.inputTokens + t.outputTokens;
  }
}
