/**
 * The usage text of each CLI command, in a module that imports nothing, so `synapse --help` and
 * `synapse <command> --help` print it without loading the command (or any SDK). Each command
 * module re-exports its own.
 */
export const INGEST_USAGE = `Usage: synapse ingest <note> --vault <dir> [--provider offline|ollama|anthropic|openai|cli]
        [--model M] [--base-url URL] [--bridge-url URL] [--max-iter N] [--lang auto|CODE] [--dry-run] [--json] [--verbose]`;

export const MODELS_USAGE = "Usage: synapse models --provider ollama|anthropic|openai [--model M] [--base-url URL] [--vault <dir>] [--json]";
