/** Which provider profile serves each operation. */
import type { Operation, ProviderId, Settings } from "../../settings/schema";
import { embeddingRows } from "./embedding-rows";
import { dropdownRow, numberRow, type SettingRow, type SettingSection, type SettingsContext } from "./rows";

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  offline: "Offline (built in, no model)",
  ollama: "Local: Ollama",
  anthropic: "API: Anthropic",
  openai: "API: OpenAI-compatible",
  cli: "CLI agent through the bridge",
};

const OPERATION_ROWS: Record<Operation, { name: string; desc: string }> = {
  ingest: { name: "Ingest with", desc: "The backend that reads a note and writes its wiki pages." },
  query: { name: "Ask with", desc: "The backend that answers questions about the wiki." },
  lint: { name: "Lint with", desc: "The backend for lint's optional checks for contradictions and likely duplicates." },
};

/** Choosing a backend shows its section (and hides one no operation uses any more). */
function operationRow(ctx: SettingsContext, operation: Operation): SettingRow {
  const { name, desc } = OPERATION_ROWS[operation];
  return dropdownRow(ctx, name, desc, PROVIDER_LABELS, (s) => s.operations[operation], (d, v) => (d.operations[operation] = v), ctx.refresh);
}

const QUERY_SCOPES: Record<Settings["queryScope"], string> = {
  wiki: "Wiki only",
  "wiki-and-notes": "Wiki and notes",
};

/** What "Ask the wiki" answers from; it sits under "Ask with" because it shapes every answer. */
function queryScopeRow(ctx: SettingsContext): SettingRow {
  return dropdownRow(ctx, "Ask from", "Where answers come from: the wiki's pages alone, or the wiki first and then your notes.", QUERY_SCOPES, (s) => s.queryScope, (d, v) => (d.queryScope = v));
}

/** What the model checks may spend; it sits under "Lint with" because it bounds that backend. */
function lintCostRow(ctx: SettingsContext): SettingRow {
  return numberRow(
    ctx,
    "Lint cost limit (USD)",
    "The most the model checks of one lint may spend; 0 means no limit.",
    { min: 0, integer: false },
    (s) => s.lintCostLimitUsd,
    (d, v) => (d.lintCostLimitUsd = v),
  );
}

/** Rows that belong under an operation's picker. */
function operationRows(ctx: SettingsContext, operation: Operation): SettingRow[] {
  if (operation === "query") return [operationRow(ctx, operation), queryScopeRow(ctx)];
  if (operation === "lint") return [operationRow(ctx, operation), lintCostRow(ctx)];
  return [operationRow(ctx, operation)];
}

export function operationsSection(ctx: SettingsContext): SettingSection {
  const rows = ctx.operations.flatMap((operation) => operationRows(ctx, operation));
  return { heading: "Backends", rows: [...rows, ...embeddingRows(ctx)] };
}
