/** `synapse mcp --help`, kept apart so printing it loads neither the server nor the MCP SDK. */
export const MCP_USAGE = `Usage: synapse mcp --vault <dir> [--allow-writes] [--local-agent] [--provider P] [--model M] [--base-url URL] [--bridge-url URL]

Serves the vault's wiki to an agent (Claude Code, Claude Desktop, Cursor…) over the Model Context
Protocol on stdin/stdout. Tools: search, ask, read_page, list_pages, lint, and propose, which
stages an ingest, a saved answer or a lint fix for your review (in Obsidian, or synapse review) and
writes nothing itself.
--allow-writes applies proposals at once, journaled and undoable; use it only with an agent you trust.
--local-agent says the agent's model runs on this machine, so local-only mode lets it read the vault.
--provider and the other backend flags choose the backend of ask and of proposed ingests.`;
