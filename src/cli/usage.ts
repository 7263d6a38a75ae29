/**
 * The usage text of each CLI command, in a module that imports nothing, so `synapse --help` and
 * `synapse <command> --help` print it without loading the command (or any SDK). Each command
 * module re-exports its own.
 */
export const INGEST_USAGE = `Usage: synapse ingest <note|folder> --vault <dir> [--provider offline|ollama|anthropic|openai|cli]
        [--model M] [--base-url URL] [--bridge-url URL] [--max-iter N] [--lang auto|CODE] [--force] [--dry-run] [--diff] [--json] [--verbose]
        [--batch]   (Anthropic or OpenAI: through the provider's batch API, half the price; see synapse batch --help)`;

export const MODELS_USAGE = "Usage: synapse models --provider ollama|anthropic|openai [--model M] [--base-url URL] [--vault <dir>] [--json]";

export const UNDO_USAGE = `Usage: synapse undo --vault <dir> [--json]

Reverts the last run that changed the vault (an ingest, a saved answer, lint fixes): files it changed
get their earlier content back, pages it created are removed. Run it again to undo the run before.
If you edited one of those files since, nothing is undone and the files are listed (exit code 5).`;

export const HISTORY_USAGE = `Usage: synapse history --vault <dir> [--json]

Lists the last 20 runs that changed the vault, newest first, with the files each touched.`;

export const SEARCH_USAGE = `Usage: synapse search "<query>" --vault <dir> [--scope wiki|notes|all|<folder>[,<folder>…]] [--limit N] [--json]
        [--embed-provider none|ollama|openai] [--embed-model M] [--base-url URL]`;

export const INDEX_USAGE = "Usage: synapse index --vault <dir> [--json] [--embed-provider none|ollama|openai] [--embed-model M] [--base-url URL]";

export const QUERY_USAGE = `Usage: synapse query "<question>" --vault <dir> [--provider offline|ollama|anthropic|openai|cli]
        [--model M] [--base-url URL] [--scope wiki|notes|all|<folder>] [--general] [--save] [--json]`;

export const LINT_USAGE = `Usage: synapse lint --vault <dir> [--model-checks [--max-cost <usd>] [--provider P] [--model M] [--base-url URL]] [--fix safe|all] [--dry-run] [--json]
       synapse lint --vault <dir> --resolve <id> --keep 1|2|<source> [--json]
       synapse lint --vault <dir> --dismiss <id> [--json]`;

export const RETRACT_USAGE = `Usage: synapse retract <note> --vault <dir> [--dry-run] [--diff] [--json]

Takes a source note that is gone (deleted, or in an excluded folder) out of the wiki: its sections
leave every page it fed, a page left with nothing on it is removed, and index.md follows. Sections
you edited are kept and listed. One run: synapse undo takes it all back.`;
export const REVIEW_USAGE = `Usage: synapse review --vault <dir> [list] [--json]
       synapse review --vault <dir> show <id> [--json]
       synapse review --vault <dir> accept <id> [--json]
       synapse review --vault <dir> refuse <id> [--json]

Changes an agent proposed through synapse mcp wait here until you decide. "show" prints the diff of
each file; "accept" plans the change again against the vault as it is now and applies it as one run
(synapse undo takes it back); "refuse" drops it and writes nothing.`;

export const BATCH_USAGE = `Usage: synapse batch status [<id>] --vault <dir> [--json]
       synapse batch collect [<id>] --vault <dir> [--retry-failed] [--diff] [--json]
       synapse batch cancel <id> --vault <dir> [--json]

A batch ingest (synapse ingest <folder> --batch) runs in rounds at the provider's batch API, at half
the price; results come within hours. "status" says where each batch is; "collect" takes in a
finished round, writes every note whose pages are complete (one run per note: synapse undo takes it
back) and sends the next round; run it again until nothing is left. "--retry-failed" ingests the
notes whose requests failed or expired interactively, at the usual price. "cancel" stops the round
at the provider; collect then takes in what it finished.`;
