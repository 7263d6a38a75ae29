/**
 * What a documentation page points at: its relative Markdown links, and the repository paths it
 * names in inline code. test/docs/links.test.ts checks that each one exists, so a file moved or
 * renamed in the code cannot leave a page pointing at nothing.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { codeRanges } from "../../src/core/code-spans";

export interface DocLink {
  /** As written between the parentheses (or after a reference label). */
  readonly target: string;
  readonly line: number;
}

/** A link that leaves the repository (a scheme such as `https:` or `mailto:`), or a page's own anchor only. */
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Code blanked out (same length), so a link written inside code is not read as one. */
function withoutCode(markdown: string): string {
  let out = "";
  let at = 0;
  for (const { start, end } of codeRanges(markdown)) {
    out += markdown.slice(at, start) + markdown.slice(start, end).replace(/[^\n]/g, " ");
    at = end;
  }
  return out + markdown.slice(at);
}

/** Inline links and images `[text](target "title")`, and reference definitions `[label]: target`. */
export function markdownLinks(markdown: string): DocLink[] {
  const prose = withoutCode(markdown);
  const links: DocLink[] = [];
  for (const match of prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ target: match[1] ?? "", line: lineOf(prose, match.index) });
  }
  for (const match of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) {
    links.push({ target: match[1] ?? "", line: lineOf(prose, match.index) });
  }
  return links.filter((link) => !isExternal(link.target));
}

/** The contents of each inline code span (not fenced blocks), with its line. */
export function inlineCode(markdown: string): DocLink[] {
  return codeRanges(markdown)
    .map(({ start, end }) => ({ text: markdown.slice(start, end), start }))
    .filter(({ text }) => !/^[ \t]*(`{3,}|~{3,})/.test(text) || !text.includes("\n"))
    .map(({ text, start }) => ({ target: text.replace(/^`+|`+$/g, "").trim(), line: lineOf(markdown, start) }));
}

/**
 * GitHub's anchor for a heading: its text as rendered (code marks, emphasis and link syntax gone),
 * lower-cased, with everything but letters, digits, marks, spaces, `-` and `_` removed and spaces
 * turned into hyphens; a repeated anchor gets `-1`, `-2`….
 */
export function headingAnchors(markdown: string): Set<string> {
  const prose = withoutCode(markdown);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    if (prose.slice(match.index, match.index + 1) !== "#") continue; // a heading inside a fenced block
    const text = (match[1] ?? "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, "").replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** A path as docs write it — `src/vault/node-*.ts`, `src/providers/<name>/sdk.ts`, `test/fixtures/notes/<language>/…` — as one pattern per segment. */
function segmentPattern(segment: string): RegExp {
  const escaped = segment
    .split(/(\*+|<[^>]+>|…)/)
    .map((part, i) => (i % 2 === 1 ? ".+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${escaped}$`);
}

/** Whether `path` (relative to `root`, a pattern as above allowed) names at least one file or folder. */
export function pathExists(root: string, path: string): boolean {
  const segments = path.replace(/\/$/, "").split("/");
  const walk = (dir: string, rest: string[]): boolean => {
    const [head, ...tail] = rest;
    if (head === undefined) return true;
    if (head === "…") return true; // "and so on below this folder"
    if (!/[*<…]/.test(head)) {
      const next = join(dir, head);
      return existsSync(next) && (tail.length === 0 || (statSync(next).isDirectory() && walk(next, tail)));
    }
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
    const pattern = segmentPattern(head);
    return readdirSync(dir).some((name) => {
      if (!pattern.test(name)) return false;
      const next = join(dir, name);
      return tail.length === 0 || (statSync(next).isDirectory() && walk(next, tail));
    });
  };
  return walk(root, segments);
}

/** Every Markdown file under `dir`, as paths relative to `root`. */
export function markdownFiles(root: string, dir: string): string[] {
  const full = join(root, dir);
  return readdirSync(full).flatMap((name) => {
    const path = join(full, name);
    if (statSync(path).isDirectory()) return markdownFiles(root, relative(root, path));
    return name.endsWith(".md") ? [relative(root, path)] : [];
  });
}

/** The file a link from `fromFile` (relative to the root) leads to, and its anchor if any. */
export function resolveLink(fromFile: string, target: string): { file: string; anchor: string | null } {
  const [pathPart = "", anchor] = target.split("#", 2);
  const path = decodeURIComponent(pathPart.split("?")[0] ?? "");
  const file = path === "" ? fromFile : join(dirname(fromFile), path);
  return { file, anchor: anchor === undefined || anchor === "" ? null : decodeURIComponent(anchor) };
}
