/**
 * A wiki with one of every defect planted, and one look-alike of each that is not a defect: a link
 * inside a code block, a link that resolves through an alias, a page deliberately left without
 * sources and marked so. The exact checks must find each defect and only those.
 */
import { contentHash } from "../../src/core/content-hash";

function page(fm: Record<string, string>, body: string, ours = true): string {
  const lines = Object.entries(fm).map(([k, v]) => `${k}: ${v}`);
  if (ours) lines.push(`synapse_hash: ${contentHash(body)}`);
  return `---\n${lines.join("\n")}\n---\n\n${body.trim()}\n`;
}

export const PLANTED: Record<string, string> = {
  "notes/ada.md": "Ada's notes. See [[Ada Lovelace]].",
  "notes/engine.md": "Engine notes about [[Analytical Engine]].",
  // Healthy pages.
  "wiki/entities/Ada Lovelace.md": page(
    { type: "entity", title: "Ada Lovelace", sources: "[notes/ada.md]", aliases: "[Countess of Lovelace]" },
    "Ada wrote about the [[Analytical Engine]]. Also known as [[Countess of Lovelace]].\n\n```\n[[Inside code is no link]]\n```\n\nInline `[[Nor this]]` and escaped \\[[Nor that]].",
  ),
  "wiki/concepts/Analytical Engine.md": page({ type: "concept", title: "Analytical Engine", sources: "[notes/engine.md]" }, "A machine. Built by Babbage, see [[Ada Lovelace]]."),
  "wiki/syntheses/Deliberately unsourced.md": page(
    { type: "synthesis", title: "Deliberately unsourced", sources: "[]", synapse_lint_ignore: "[missing-sources]" },
    "My own musings about [[Ada Lovelace]].",
  ),
  // Defects.
  "wiki/concepts/Dangling.md": page({ type: "concept", title: "Dangling", sources: "[notes/engine.md]" }, "Points to [[Ada Lovelac]] and [[Nowhere at all]]. Back to [[Analytical Engine]]."),
  "wiki/concepts/Orphaned idea.md": page({ type: "concept", title: "Orphaned idea", sources: "[notes/engine.md]" }, "Nobody links here."),
  "wiki/concepts/Unsourced.md": page({ type: "concept", title: "Unsourced", sources: "[]" }, "No sources. See [[Analytical Engine]]."),
  "wiki/concepts/Lost source.md": page({ type: "concept", title: "Lost source", sources: "[notes/deleted.md]" }, "From a deleted note. See [[Analytical Engine]]."),
  "wiki/entities/Ada Lovelace (2).md": page({ type: "entity", title: "Ada Lovelace", sources: "[notes/ada.md]" }, "A second page about [[Ada Lovelace]]."),
  "wiki/concepts/Broken yaml.md": "---\ntype: concept\ntitle: [unclosed\n---\n\nText with [[Analytical Engine]].\n",
  "wiki/concepts/Empty.md": page({ type: "concept", title: "Empty", sources: "[notes/engine.md]" }, "   "),
  "wiki/entities/Misfiled.md": page({ type: "concept", title: "Misfiled", sources: "[notes/engine.md]" }, "A concept among entities. [[Analytical Engine]]."),
  "wiki/index.md": [
    "# Wiki index",
    "",
    "## Entities",
    "",
    "- [[wiki/entities/Ada Lovelace|Ada Lovelace]]",
    "- [[wiki/entities/Ada Lovelace (2)|Ada Lovelace]]",
    "- [[wiki/entities/Misfiled|Misfiled]]",
    "",
    "## Concepts",
    "",
    "- [[wiki/concepts/Analytical Engine|Analytical Engine]]",
    "- [[wiki/concepts/Dangling|Dangling]]",
    "- [[wiki/concepts/Unsourced|Unsourced]]",
    "- [[wiki/concepts/Lost source|Lost source]]",
    "- [[wiki/concepts/Broken yaml|Broken yaml]]",
    "- [[wiki/concepts/Empty|Empty]]",
    "- [[wiki/concepts/Gone|Gone]]",
    "",
    "## Syntheses",
    "",
    "- [[wiki/syntheses/Deliberately unsourced|Deliberately unsourced]]",
    "",
  ].join("\n"),
};

/** The lint view's groups for PLANTED, in the view's order, with their counts. */
export const PLANTED_REPORT_HEADINGS: readonly string[] = [
  "Dangling links (2)",
  "Orphan pages (1)",
  "Pages without sources (1)",
  "Sources that no longer exist (1)",
  "Duplicates (1)",
  "Index (1)",
  "Empty pages (1)",
  "Pages outside their folder (1)",
];
