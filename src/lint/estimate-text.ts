/**
 * The model checks' estimate in one sentence, as the CLI prints it and the plugin's view shows it.
 * A backend on this computer says "free (runs on this computer)" as every other surface does.
 */
import { plural } from "../core/plural";
import { FREE_RUN, formatUsd } from "../core/cost-text";
import type { UsageSummary } from "../core/usage";
import type { ModelCheckEstimate, ModelCheckSummary } from "./model-checks";

const count = (n: number) => n.toLocaleString("en-US");

/** What a lint run spent, for its report; empty when it spent nothing. */
export function spentLine(usage: UsageSummary): string {
  if (usage.inputTokens + usage.outputTokens === 0) return "";
  const cost = usage.local === true && !usage.costUsd ? `, ${FREE_RUN}` : usage.costUsd === null ? " (no price known for the model)" : `, about ${formatUsd(usage.costUsd)}`;
  return `Used ${count(usage.inputTokens)} tokens in and ${count(usage.outputTokens)} out${cost}.`;
}

/** Shown before any model call (and alone with `--dry-run`). */
export function estimateLine(e: ModelCheckEstimate): string {
  const cost = e.treatedAsFree
    ? `${FREE_RUN}, so the cost limit of ${formatUsd(e.costLimitUsd)} counts nothing: no price is known for ${e.model ?? "the model"} (add its price under "prices" if the server passes requests on to a paid model)`
    : e.isLocal && !e.costUsd
      ? FREE_RUN
      : e.costUsd === null
        ? "no price known for this model"
        : `about ${formatUsd(e.costUsd)}`;
  const budget = e.overBudget > 0 ? `; ${e.overBudget} more left out by the token budget` : "";
  const limit = e.overCost > 0 ? `; ${e.overCost} more left out by the cost limit of ${formatUsd(e.costLimitUsd)}` : "";
  const capped = e.beyondLimit > 0 ? `; ${plural(e.beyondLimit, "weaker pair")} beyond the cap on pairs left out` : "";
  const broad = e.broadGroups.length > 0 ? `; not paired as too broad: ${e.broadGroups.join(", ")}` : "";
  return `Model checks with ${e.model ?? "no model"}: ${plural(e.pairs, "pair")} of related pages, ${e.cached} already checked, ${e.toCheck} to check — about ${count(e.inputTokens)} tokens in and ${count(e.outputTokens)} out, ${cost}${budget}${limit}${capped}${broad}.`;
}


/**
 * The pairs the model checks did not settle, each with why, for the CLI's and the view's report:
 * none of them is cached, so the next lint asks about them again. Empty when every pair was.
 */
export function notCheckedParts(m: ModelCheckSummary): string[] {
  const parts: string[] = [];
  if (m.unreadable > 0) parts.push(`${m.unreadable} unreadable (asked again next time)`);
  if (m.unverified > 0) parts.push(`${m.unverified} not checked: no quote on the pages (asked again next time)`);
  if (m.tooLong > 0) parts.push(`${m.tooLong} not checked: the pages did not fit the model's context window (asked again next time)${m.tooLongReason ? `: ${m.tooLongReason}` : ""}`);
  if (m.unchecked > 0) parts.push(`${m.unchecked} not reached`);
  return parts;
}

/** The run that recorded what the model checks found, for the report; empty when there was none. */
export function recordedRunLine(m: ModelCheckSummary): string {
  return m.recordedRun ? `Contradictions recorded as run ${m.recordedRun} (undo takes it back).` : "";
}
