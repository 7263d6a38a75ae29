/** Which provider profile serves each operation. */
import type { Operation, ProviderId, Settings } from "../../settings/schema";
import { embeddingRows } from "./embedding-rows";
import { numberRow, save, type SettingRow, type SettingSection, type SettingsContext } from "./rows";

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
  lint: { name: "Lint with", desc: "The backend for lint's optional model checks (contradictions, likely duplicates)." },
};

function operationRow(ctx: SettingsContext, operation: Operation): SettingRow {
  return {
    ...OPERATION_ROWS[operation],
    build: (setting) => {
      setting.addDropdown((dropdown) =>
        dropdown
          .addOptions(PROVIDER_LABELS)
          .setValue(ctx.store.settings.operations[operation])
          .onChange((value) => void save(setting, ctx.store, (draft) => (draft.operations[operation] = value as ProviderId))),
      );
    },
  };
}

const QUERY_SCOPES: Record<Settings["queryScope"], string> = {
  wiki: "Wiki only",
  "wiki-and-notes": "Wiki and notes",
};

/** What "Ask the wiki" answers from; it sits under "Ask with" because it shapes every answer. */
function queryScopeRow(ctx: SettingsContext): SettingRow {
  return {
    name: "Ask from",
    desc: "Wiki only: answers come from the wiki's pages. Wiki and notes: the wiki's pages first, then your source notes. Excluded folders are never used.",
    build: (setting) => {
      setting.addDropdown((dropdown) =>
        dropdown
          .addOptions(QUERY_SCOPES)
          .setValue(ctx.store.settings.queryScope)
          .onChange((value) => void save(setting, ctx.store, (draft) => (draft.queryScope = value === "wiki" ? "wiki" : "wiki-and-notes"))),
      );
    },
  };
}

/** What the model checks may spend; it sits under "Lint with" because it bounds that backend. */
function lintCostRow(ctx: SettingsContext): SettingRow {
  return numberRow(
    ctx,
    "Lint cost limit (USD)",
    "The most the model checks of one lint may spend, at the model's price: pairs that would go past it are left out and listed. A backend on this computer costs nothing; a remote model with no known price is refused while a limit is set. 0 means no limit.",
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
