/**
 * Markdown helpers shared by the Offline provider, the wiki writer, lint and query. Frontmatter is
 * parsed with the `yaml` package (never gray-matter, which evaluates `---js` blocks). The parts
 * that need no YAML parser live in their own files, which the search index's worker imports
 * directly: markdown-text.ts, frontmatter-values.ts, frontmatter-block.ts.
 */
import { parse as parseYaml } from "yaml";
import { frontmatterBlock } from "./frontmatter-block";
import { parseSimpleYaml } from "./simple-yaml";

export { frontmatterList, frontmatterPaths } from "./frontmatter-values";
export { headings, inlineTags, inlineTagsOutsideCode, stripCode, type Heading } from "./markdown-text";

export interface SplitNote {
  /** Parsed frontmatter, or an empty object when there is none or it does not parse. */
  readonly frontmatter: Record<string, unknown>;
  /** The raw frontmatter block between the fences ("" when none). */
  readonly rawFrontmatter: string;
  readonly body: string;
  /** True when a frontmatter block was present but was not a YAML mapping. */
  readonly frontmatterInvalid: boolean;
}

export function splitFrontmatter(text: string): SplitNote {
  const block = frontmatterBlock(text);
  if (!block) return { frontmatter: {}, rawFrontmatter: "", body: text, frontmatterInvalid: false };
  const { raw, body } = block;
  try {
    // Most notes' frontmatter is of the simple kind read without the full parser (same result).
    const simple = parseSimpleYaml(raw);
    const parsed: unknown = simple !== undefined ? simple : parseYaml(raw, { maxAliasCount: 50, prettyErrors: false });
    if (parsed === null || parsed === undefined) return { frontmatter: {}, rawFrontmatter: raw, body, frontmatterInvalid: false };
    if (typeof parsed === "object" && !Array.isArray(parsed)) {
      return { frontmatter: parsed as Record<string, unknown>, rawFrontmatter: raw, body, frontmatterInvalid: false };
    }
  } catch {
    // Invalid YAML: keep the body, report it, never throw on a user's note.
  }
  return { frontmatter: {}, rawFrontmatter: raw, body, frontmatterInvalid: true };
}
