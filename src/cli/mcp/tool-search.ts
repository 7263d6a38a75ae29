/** `search`: ranked passages of the vault's index, never from an excluded folder. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { parseScope } from "../../retrieval";
import { effectiveWikiFolder } from "../../wiki/page-paths";
import { shareablePaths } from "../../wiki/shareable-pages";
import { DEFAULT_SEARCH_HITS, MAX_SEARCH_HITS } from "./limits";
import type { McpSession } from "./session";
import { guarded } from "./tool-result";

export const SearchArgs = {
  query: z.string().trim().min(1, "Give words to search for.").max(1000, "The query is over 1,000 characters."),
  scope: z.string().trim().min(1).max(1000).optional().describe('"wiki" (default), "notes", "all", or folders of the vault separated by commas'),
  limit: z.number().int().min(1).max(MAX_SEARCH_HITS).optional().describe(`how many hits, 1 to ${MAX_SEARCH_HITS} (default ${DEFAULT_SEARCH_HITS})`),
};

export function registerSearch(server: McpServer, session: McpSession): void {
  server.registerTool(
    "search",
    {
      title: "Search the wiki",
      description: "Full-text and link search over the Synapse wiki (and, with scope, the user's notes). Returns paths, headings and short snippets; read_page gives a page whole.",
      inputSchema: SearchArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const settings = await session.admitContent();
        const scope = parseScope(args.scope ?? "wiki");
        await session.recover(settings, "read");
        const { index } = await session.index(settings, extra.signal);
        const limit = args.limit ?? DEFAULT_SEARCH_HITS;
        const hits = await index.retrieve(args.query, { scope, limit, signal: extra.signal });
        // The index never holds an excluded note; this holds the line again with today's settings.
        const allowed = await shareablePaths(session.vault, hits.map((h) => h.path), effectiveWikiFolder(settings.wikiFolder), settings.excludedFolders);
        const results = hits.filter((h) => allowed.has(h.path)).slice(0, limit);
        return { results: results.map((h) => ({ path: h.path, heading: h.heading, score: Math.round(h.score * 10000) / 10000, snippet: h.snippet })) };
      }),
  );
}
