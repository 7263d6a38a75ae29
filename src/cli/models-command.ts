/**
 * `synapse models --provider …`: the readiness check from a terminal. Lists the models a server
 * offers and what each reports it can do, marks the configured one, and says what to fix.
 * Exit 0 when everything is ready, 4 when something is not, 2 for a usage error.
 */
import { resolve } from "node:path";
import type { ReadinessReport } from "../core/readiness";
import { checkReadiness } from "../providers/readiness";
import { DEFAULT_SETTINGS, type ProviderId, type Settings } from "../settings/schema";
import { createNodeFetch } from "../providers/transports/node-fetch";
import { envSecrets } from "./env-secrets";
import { EXIT, UsageError, parseFlags, BACKEND_FLAG_OPTIONS } from "./io";
import { applyFlags, readVaultSettings } from "./vault-settings";

import { MODELS_USAGE } from "./usage";

export { MODELS_USAGE };

export interface ModelsCommandIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: false,
    strict: true,
    options: {
      ...BACKEND_FLAG_OPTIONS,
      vault: { type: "string" },
      json: { type: "boolean" },
    },
  });
}

function configuredModel(id: ProviderId, settings: Settings): string {
  if (id === "ollama" || id === "anthropic" || id === "openai") return settings.profiles[id].model.trim();
  return "";
}

/** Marks the configured model; matches `llama3` to `llama3:latest` and aliases to dated ids. */
function isConfigured(name: string, model: string): boolean {
  if (!model) return false;
  return name === model || name === `${model}:latest` || name.startsWith(`${model}-`) || name.endsWith(`/${model}`);
}

export function formatReadiness(report: ReadinessReport, model: string): string {
  const lines: string[] = [];
  for (const detail of report.details) lines.push(detail);
  if (report.models.length > 0) {
    lines.push("", "Models (* = configured):");
    const width = Math.min(48, Math.max(...report.models.map((m) => m.name.length)));
    for (const m of report.models) {
      const mark = isConfigured(m.name, model) ? "*" : " ";
      lines.push(`  ${mark} ${m.name.padEnd(width)}  ${m.capabilities.join(", ")}`.trimEnd());
    }
  }
  if (report.problems.length > 0) {
    lines.push("", "To fix:");
    for (const problem of report.problems) lines.push(`  - ${problem}`);
  } else {
    lines.push("", "Ready.");
  }
  return `${lines.join("\n")}\n`;
}

export async function runModelsCommand(argv: readonly string[], io: ModelsCommandIO): Promise<number> {
  try {
    const { values } = parse(argv);
    let settings: Settings = DEFAULT_SETTINGS;
    if (values.vault) {
      const loaded = await readVaultSettings(resolve(io.cwd ?? process.cwd(), values.vault));
      for (const warning of loaded.warnings) io.stderr(`Warning: ${warning}\n`);
      settings = loaded.settings;
    }
    if (!values.provider && !values.vault) throw new UsageError("--provider is required (or --vault to use the vault's configured provider).");
    const { id, settings: effective } = applyFlags(settings, {
      ...(values.provider !== undefined ? { provider: values.provider } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
    });
    const report = await checkReadiness(id, {
      settings: effective,
      secrets: envSecrets(io.env),
      fetch: createNodeFetch(),
    });
    if (values.json) io.stdout(`${JSON.stringify(report)}\n`);
    else io.stdout(formatReadiness(report, configuredModel(id, effective)));
    return report.ok ? EXIT.ok : EXIT.provider;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n${MODELS_USAGE}\n`);
      return EXIT.usage;
    }
    io.stderr(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failure;
  }
}
