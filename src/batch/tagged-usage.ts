/**
 * The run's usage, with each call's record marked `mode: "batch"` when its reply came from a batch
 * (the pass says so at the moment the call is recorded). Everything else is the run's own
 * accumulator: totals and budgets see every call, whichever way it was answered.
 */
import { UsageAccumulator, type UsageRecord, type UsageTotals } from "../core/usage";

export class TaggedUsage extends UsageAccumulator {
  constructor(
    private readonly target: UsageAccumulator,
    private readonly fromBatch: () => boolean,
  ) {
    super();
  }

  override record(entry: UsageRecord): void {
    this.target.record(this.fromBatch() ? { ...entry, mode: "batch" } : entry);
  }

  override get entries(): readonly UsageRecord[] {
    return this.target.entries;
  }

  override totals(): UsageTotals {
    return this.target.totals();
  }

  override byProvider(): Map<string, UsageTotals> {
    return this.target.byProvider();
  }

  override totalTokens(): number {
    return this.target.totalTokens();
  }
}
