/**
 * Settings by the names the settings tab shows them, so a problem with one says which control to
 * change ("Host" under Local: Ollama), never the stored field (`profiles.ollama.host`) or zod's
 * wording ("Invalid input: expected string, received number"). The plugin's tab test checks that
 * every name here is a row of the tab.
 */
import type { z } from "zod";

const OLLAMA = "Local: Ollama";
const ANTHROPIC = "API: Anthropic";
const OPENAI = "API: OpenAI-compatible";
const CLI = "CLI agent through the bridge";

/** Stored field → [section heading, row name], as the tab shows them. */
export const SETTING_ROWS: Readonly<Record<string, readonly [string, string]>> = {
  "operations.ingest": ["Backends", "Ingest with"],
  "operations.query": ["Backends", "Ask with"],
  queryScope: ["Backends", "Ask from"],
  "operations.lint": ["Backends", "Lint with"],
  lintCostLimitUsd: ["Backends", "Lint cost limit (USD)"],
  "embedding.provider": ["Backends", "Vector search with"],
  "embedding.model": ["Backends", "Embedding model"],
  wikiFolder: ["Wiki and limits", "Wiki folder"],
  wikiLanguage: ["Wiki and limits", "Wiki language"],
  userNoteCanon: ["Wiki and limits", "Subjects you have a note on"],
  reviewMode: ["Wiki and limits", "Review before writing"],
  maxIter: ["Wiki and limits", "Generation attempts"],
  tokenBudget: ["Wiki and limits", "Token budget"],
  requestTimeoutSeconds: ["Wiki and limits", "Request timeout (seconds)"],
  firstTokenTimeoutSeconds: ["Wiki and limits", "First token timeout (seconds)"],
  runTimeoutSeconds: ["Wiki and limits", "Run timeout (seconds)"],
  maxNoteBytes: ["Wiki and limits", "Largest note (KB)"],
  localOnly: ["Privacy", "Local-only mode"],
  excludedFolders: ["Privacy", "Excluded folders"],
  logContent: ["Privacy", "Log prompts and replies"],
  "profiles.ollama.host": [OLLAMA, "Host"],
  "profiles.ollama.model": [OLLAMA, "Model"],
  "profiles.ollama.embeddingModel": [OLLAMA, "Embedding model"],
  "profiles.ollama.maxTokens": [OLLAMA, "Max output tokens"],
  "profiles.ollama.contextWindow": [OLLAMA, "Context window (tokens)"],
  "profiles.anthropic.model": [ANTHROPIC, "Model"],
  "profiles.anthropic.apiKeySecret": [ANTHROPIC, "API key"],
  "profiles.anthropic.baseUrl": [ANTHROPIC, "Base URL"],
  "profiles.anthropic.maxTokens": [ANTHROPIC, "Max output tokens"],
  "profiles.openai.preset": [OPENAI, "Service"],
  "profiles.openai.baseUrl": [OPENAI, "Base URL"],
  "profiles.openai.model": [OPENAI, "Model"],
  "profiles.openai.apiKeySecret": [OPENAI, "API key"],
  "profiles.openai.maxTokens": [OPENAI, "Max output tokens"],
  "profiles.openai.contextWindow": [OPENAI, "Context window (tokens)"],
  "profiles.cli.bridgeUrl": [CLI, "Bridge URL"],
  "profiles.cli.tokenSecret": [CLI, "Bridge token"],
  "profiles.cli.maxTurns": [CLI, "Max turns"],
  "profiles.cli.maxBudgetUsd": [CLI, "Max budget (USD)"],
};

/** "Host" under Local: Ollama; a field without a row of its own by its section or its words. */
export function settingName(path: readonly PropertyKey[]): string {
  const keys = path.map(String);
  for (let end = keys.length; end > 0; end--) {
    const row = SETTING_ROWS[keys.slice(0, end).join(".")];
    if (row) return `"${row[1]}" under ${row[0]}`;
  }
  if (keys[0] === "prices") return `the price of ${keys[1] ? `"${keys[1]}"` : "a model"} (set in data.json)`;
  if (keys[0] === "profiles" && keys[1]) return `an advanced option of ${({ ollama: OLLAMA, anthropic: ANTHROPIC, openai: OPENAI, cli: CLI } as Record<string, string>)[keys[1]] ?? keys[1]} (set in data.json)`;
  return keys.length === 0 ? "The settings" : `"${keys.join(" ")}" (set in data.json)`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const KINDS: Record<string, string> = { string: "text", number: "a number", boolean: "on or off", array: "a list", object: "a group of settings" };

/** What is wrong with one value, in words: "must be a whole number of at least 1". */
function what(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${issue.expected === "int" ? "a whole number" : (KINDS[issue.expected] ?? issue.expected)}`;
    case "too_small":
      return `must be ${issue.inclusive === false ? "more than" : "at least"} ${String(issue.minimum)}`;
    case "too_big":
      return `must be ${issue.inclusive === false ? "less than" : "at most"} ${String(issue.maximum)}`;
    case "invalid_value":
      return "is not one of its choices";
    case "invalid_format":
      return "is not in the expected form";
    default:
      return "is not valid";
  }
}

/**
 * One sentence a person can act on. A custom check's message is already such a sentence (it names
 * the setting itself, as the wiki folder's does); any other issue is said as the row's name and
 * what it must be.
 */
export function describeSettingIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "custom") return `${capitalised(issue.message.trim()).replace(/\.?$/, ".")}`;
  return `${capitalised(settingName(issue.path))} ${what(issue)}.`;
}

/** Why a stored value was dropped: "was not a number", "was less than 1". */
function whyReset(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `was not ${issue.expected === "int" ? "a whole number" : (KINDS[issue.expected] ?? issue.expected)}`;
    case "too_small":
      return `was ${issue.inclusive === false ? "not more than" : "less than"} ${String(issue.minimum)}`;
    case "too_big":
      return `was ${issue.inclusive === false ? "not less than" : "more than"} ${String(issue.maximum)}`;
    case "invalid_value":
      return "was not one of its choices";
    default:
      return "was not valid";
  }
}

/** The warning for a stored value that was reset when the settings were read. */
export function describeResetSetting(issue: z.core.$ZodIssue): string {
  const why = issue.code === "custom" ? capitalised(issue.message.trim()).replace(/\.?$/, ".") : `Its saved value ${whyReset(issue)}.`;
  return `${capitalised(settingName(issue.path))} was reset to its default. ${why}`;
}
