/**
 * The "advanced options" map from settings: provider-specific extras (temperature, top_p, num_ctx…)
 * merged into a request. It may never steer what the request is: keys that choose the model, the
 * messages, the schema, the tools or streaming are dropped and reported, never applied.
 */
export type AdvancedOptions = Readonly<Record<string, string | number | boolean>>;

export const RESERVED_OPTION_KEYS: ReadonlySet<string> = new Set([
  "model",
  "messages",
  "system",
  "prompt",
  "input",
  "stream",
  "stream_options",
  "schema",
  "format",
  "response_format",
  "output_config",
  "tools",
  "tool_choice",
  "functions",
  "function_call",
  "max_tokens",
  "max_completion_tokens",
]);

export interface SanitisedOptions {
  readonly options: Record<string, string | number | boolean>;
  /** Keys that were dropped, for a warning in readiness reports and logs. */
  readonly ignored: readonly string[];
}

export function sanitiseOptions(options: AdvancedOptions | undefined): SanitisedOptions {
  const kept: Record<string, string | number | boolean> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(options ?? {})) {
    if (RESERVED_OPTION_KEYS.has(key.toLowerCase()) || key === "__proto__" || key === "constructor") ignored.push(key);
    else kept[key] = value;
  }
  return { options: kept, ignored };
}

export function describeIgnoredOptions(label: string, ignored: readonly string[]): string[] {
  return ignored.map((key) => `${label}: advanced option "${key}" is ignored because Synapse sets it itself.`);
}
