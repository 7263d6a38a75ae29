/**
 * Reads a wiki page the agent wrote (YAML frontmatter + Markdown body) into a `WikiPage`.
 * Lenient on purpose: whatever is missing stays empty, and the validator tells the agent what to fix.
 * TODO(lead): fold into src/wiki/page-markdown.ts (`parsePageMarkdown`) once that codec lands.
 */
import { frontmatterList, headings, splitFrontmatter } from "../core/markdown";
import type { WikiPage } from "../core/schemas";

function text(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number") return String(value);
  return "";
}

export function parsePageFile(markdown: string, path: string): WikiPage {
  const { frontmatter, body } = splitFrontmatter(markdown);
  const h1 = headings(body).find((h) => h.level === 1)?.text ?? "";
  const base = path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
  return {
    type: text(frontmatter.type).toLowerCase(),
    title: text(frontmatter.title) || h1 || base,
    frontmatter: {
      sources: frontmatterList(frontmatter.sources).map((s) => s.replace(/^\[\[(.*)\]\]$/, "$1")),
      lang: text(frontmatter.lang),
      tags: frontmatterList(frontmatter.tags).map((t) => t.replace(/^#/, "")),
    },
    content: body.replace(/^\s*\n/, "").trimEnd(),
  };
}
