/** The Synapse MCP server: the wiki's tools and its pages as resources, over one session. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerAsk } from "./tool-ask";
import { registerLint } from "./tool-lint";
import { registerPages } from "./tool-pages";
import { registerPropose } from "./tool-propose";
import { registerSearch } from "./tool-search";
import type { McpSession } from "./session";

export function createMcpServer(session: McpSession, version: string): McpServer {
  const server = new McpServer(
    { name: "synapse", version },
    {
      instructions:
        "Synapse is the user's LLM-maintained wiki in their Obsidian vault. Use search, list_pages and read_page to find what it says, ask for a cited answer, lint to see what needs fixing, and propose to add to it or apply a fix: proposals wait for the user's review unless the server allows writes.",
    },
  );
  registerSearch(server, session);
  registerAsk(server, session);
  registerPages(server, session);
  registerLint(server, session);
  registerPropose(server, session);
  server.server.oninitialized = () => {
    const client = server.server.getClientVersion();
    session.client = client ? `${client.name} ${client.version}`.slice(0, 200) : null;
  };
  return server;
}
