/** `read_page`, `list_pages`, and the pages as resources (`synapse://page/<path>`). */
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { SynapseError } from "../../core/errors";
import { PAGE_TYPES } from "../../core/schemas";
import { DEFAULT_LISTED_PAGES, MAX_LISTED_PAGES } from "./limits";
import { readPage, wikiPages } from "./page-access";
import type { McpSession } from "./session";
import { guarded } from "./tool-result";

export const PAGE_URI_PREFIX = "synapse://page/";

export function pageUri(path: string): string {
  return `${PAGE_URI_PREFIX}${path.split("/").map(encodeURIComponent).join("/")}`;
}

export const ReadPageArgs = { path: z.string().min(1, "Give the page's path inside the vault.").describe("vault-relative path, such as wiki/concepts/Ada.md") };

export const ListPagesArgs = {
  type: z.enum(PAGE_TYPES).optional().describe("only pages of this type"),
  offset: z.number().int().min(0).optional().describe("skip this many pages (for the next batch)"),
  limit: z.number().int().min(1).max(MAX_LISTED_PAGES).optional().describe(`at most this many pages, 1 to ${MAX_LISTED_PAGES} (default ${DEFAULT_LISTED_PAGES})`),
};

export function registerPages(server: McpServer, session: McpSession): void {
  server.registerTool(
    "read_page",
    {
      title: "Read a page",
      description:
        "The Markdown of one wiki page or note of the vault, frontmatter included, without Synapse's source markers and attribution lines (cut at 100,000 characters). Pages in excluded folders are refused.",
      inputSchema: ReadPageArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const settings = await session.admitContent();
        await session.recover(settings, "read");
        const page = await readPage(session.vault, settings, args.path);
        return { path: page.path, uri: pageUri(page.path), markdown: page.text, truncated: page.truncated, chars: page.chars };
      }),
  );

  server.registerTool(
    "list_pages",
    {
      title: "List the wiki's pages",
      description: "The wiki's pages with their paths, titles and types, in path order, optionally of one type.",
      inputSchema: ListPagesArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const settings = await session.admitContent();
        await session.recover(settings, "read");
        const all = (await wikiPages(session.vault, settings)).filter((p) => !args.type || p.type === args.type);
        const offset = args.offset ?? 0;
        const pages = all.slice(offset, offset + (args.limit ?? DEFAULT_LISTED_PAGES));
        return { total: all.length, offset, pages: pages.map((p) => ({ ...p, uri: pageUri(p.path) })) };
      }),
  );

  server.registerResource(
    "page",
    new ResourceTemplate(`${PAGE_URI_PREFIX}{+path}`, {
      list: async () => {
        const settings = await session.admitContent();
        const pages = (await wikiPages(session.vault, settings)).slice(0, MAX_LISTED_PAGES);
        return { resources: pages.map((p) => ({ uri: pageUri(p.path), name: p.title, mimeType: "text/markdown", description: p.type ? `${p.type} page` : "page" })) };
      },
    }),
    { title: "Wiki page", description: "A page of the Synapse wiki, as Markdown, without Synapse's source markers and attribution lines.", mimeType: "text/markdown" },
    async (uri) => {
      const settings = await session.admitContent();
      const raw = uri.href.startsWith(PAGE_URI_PREFIX) ? uri.href.slice(PAGE_URI_PREFIX.length) : "";
      let path: string;
      try {
        path = raw.split("/").map(decodeURIComponent).join("/");
      } catch {
        throw new SynapseError("input", `"${uri.href}" is not a page address.`);
      }
      const page = await readPage(session.vault, settings, path);
      return { contents: [{ uri: pageUri(page.path), mimeType: "text/markdown", text: page.text }] };
    },
  );
}
