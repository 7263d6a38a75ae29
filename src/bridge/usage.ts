/** `synapse bridge --help`, kept apart so printing it loads neither the bridge nor the agent SDK. */
export const BRIDGE_USAGE = `Usage: synapse bridge --vault <dir> [--vault <dir>…] [--port N] [--json] [--claude-path <file>] [--verbose]

Starts the companion bridge on 127.0.0.1 so the Synapse plugin (or "synapse ingest --provider cli")
can run the Claude agent. The token is printed on start; set SYNAPSE_BRIDGE_TOKEN to choose it.
The agent authenticates with ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL) from this environment.
`;
