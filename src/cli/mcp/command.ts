/**
 * `synapse mcp --vault <dir>`: the MCP server on stdin/stdout until the client closes stdin (or
 * Ctrl-C). stdout belongs to the protocol: everything for a person goes to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CommandContext } from "../commands";
import { BACKEND_FLAG_OPTIONS, EXIT, parseFlags, type CliIO } from "../io";
import { applyFlags} from "../vault-settings";
import { createMcpServer } from "./server";
import { McpSession } from "./session";
import { existingVaultRoot, settingsWithWarnings } from "../vault-root";

export { MCP_USAGE } from "./usage";

function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: false,
    strict: true,
    options: {
      vault: { type: "string" },
      "allow-writes": { type: "boolean" },
      "local-agent": { type: "boolean" },
      ...BACKEND_FLAG_OPTIONS,
      "bridge-url": { type: "string" },
    },
  });
}

export async function runMcpCommand(argv: readonly string[], io: CliIO, context: CommandContext = {}): Promise<number> {
  const { values } = parse(argv);
  const vaultRoot = await existingVaultRoot(values.vault, io);
  const loaded = await settingsWithWarnings(vaultRoot, io);
  const session = new McpSession({
    vaultRoot,
    io,
    allowWrites: values["allow-writes"] === true,
    localAgent: values["local-agent"] === true,
    flags: {
      ...(values.provider !== undefined ? { provider: values.provider } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
      ...(values["bridge-url"] !== undefined ? { bridgeUrl: values["bridge-url"] } : {}),
    },
  });
  // A bad --provider or --max-iter is a usage error now, not a failed call later.
  applyFlags(loaded.settings, session.options.flags, "query");
  await session.recover(loaded.settings, "write");
  const prepared = session.prepareIndex(loaded.settings);
  const server = createMcpServer(session, context.version ?? "unknown");
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once("end", () => done());
    context.signal?.addEventListener("abort", () => done(), { once: true });
  });
  await server.connect(transport);
  io.stderr(`Synapse MCP server for ${vaultRoot}${session.options.allowWrites ? " (writes allowed)" : " (proposals wait for review)"}.\n`);
  await closed;
  // An index still being built is finished and written, not cut off half-way (Ctrl-C does not wait).
  if (!context.signal?.aborted) await prepared;
  await server.close().catch(() => undefined);
  return context.signal?.aborted ? EXIT.cancelled : EXIT.ok;
}
