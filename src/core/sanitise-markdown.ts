/**
 * What a model writes is data. `sanitiseMarkdown` makes model-written Markdown inert before it is
 * written into the vault, keeping every word visible: nothing is deleted, what could run is
 * escaped or relabelled.
 *
 * - Raw HTML: an allow-list. Only attribute-less `b i u s em strong small mark sub sup kbd del ins
 *   span br` pass; every other `<` that could open a tag, comment or declaration becomes `&lt;`
 *   (so `<script>`, `<iframe>`, `<img onerror=…>`, `<a href=…>`, `<style>`, `<form>`… show as text).
 * - URLs: the colon of `javascript:`, `vbscript:`, `file:` and `data:` links, embeds and autolinks
 *   becomes `：`, through case, tabs, entities and percent or backslash escapes (sanitise-inline.ts).
 * - Code blocks other plugins run (`dataviewjs`, `dataview`, Datacore, JS Engine, Buttons, Meta
 *   Bind's buttons and JS views, Execute Code's `run-…`) are relabelled ```` ```text dataviewjs ````,
 *   so the code stays visible and no plugin picks it up; Dataview's inline `` `$= …` `` gets a space.
 * - Templater commands (`<% … %>`, `<%* … %>`) become `<\%`, everywhere, code included: Templater
 *   reads the raw file, not the Markdown, when it runs on a file Synapse creates.
 * - Synapse's own provenance markers (`%% synapse:source … %%`, `%% /synapse:source %%`) are escaped
 *   (`\%\%`) on any line that names `synapse:`, code included: the marker parser reads lines, not
 *   Markdown, and a forged marker would turn model text into the user's.
 *
 * Inside fenced code nothing else changes: there HTML and links are shown, never run. A fence is
 * trusted only where CommonMark surely agrees (at most three spaces in, at the top level); a line
 * indented less than its opening fence ends that trust. Linear time, idempotent.
 */
import { sanitiseInline } from "./sanitise-inline";

/** Code-block languages that another plugin executes or evaluates when the page is shown. */
const RUNNING_LANGUAGES: ReadonlySet<string> = new Set([
  "dataviewjs", // Dataview: JavaScript with the vault's API (off unless the user enables JS queries)
  "dataview", // Dataview: a query that renders other notes' contents, excluded folders included
  "datacore",
  "datacorejs",
  "datacorejsx",
  "datacorets",
  "datacoretsx",
  "js-engine", // JS Engine
  "button", // Buttons: runs commands, templates and scripts on a click
  "meta-bind-button",
  "meta-bind-js-view",
]);
const RUNNING_PREFIX = "run-"; // Execute Code runs `run-python`, `run-js`… blocks

interface Fence {
  readonly char: string;
  readonly length: number;
  readonly indent: number;
}

/** `<%` is a Templater command wherever it stands; `<\%` reads as `<%` in Markdown and is nothing to Templater. */
function withoutTemplater(line: string): string {
  return line.includes("<%") ? line.replaceAll("<%", "<\\%") : line;
}

/** A line the provenance parser could read as a marker, its every `%` escaped. */
function withoutMarkers(line: string): string {
  if (!line.includes("%%") || !/synapse:/i.test(line)) return line;
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? "";
    out += c === "%" && line[i - 1] !== "\\" ? "\\%" : c;
  }
  return out;
}

function indentOf(line: string): number {
  let i = 0;
  while (line[i] === " ") i++;
  return line[i] === "\t" ? Number.POSITIVE_INFINITY : i;
}

/** After quote and list markers and indentation: where a fence could start in a nested block. */
function nestedStart(line: string): number {
  let i = 0;
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    if (line[i] === ">") i++;
    else if ((line[i] === "-" || line[i] === "*" || line[i] === "+") && (line[i + 1] === " " || line[i + 1] === "\t")) i++;
    else {
      let j = i;
      while (j - i < 9 && line[j] !== undefined && line[j]! >= "0" && line[j]! <= "9") j++;
      if (j > i && (line[j] === "." || line[j] === ")") && (line[j + 1] === " " || line[j + 1] === "\t")) i = j + 1;
      else return i;
    }
  }
}

function fenceRunAt(line: string, at: number): { char: string; end: number } | null {
  const char = line[at];
  if (char !== "`" && char !== "~") return null;
  let end = at;
  while (line[end] === char) end++;
  return end - at >= 3 ? { char, end } : null;
}

function runs(language: string): boolean {
  const lower = language.toLowerCase();
  return RUNNING_LANGUAGES.has(lower) || lower.startsWith(RUNNING_PREFIX);
}

/** Any fence-like line, even inside a quote or a list (plugins run blocks there too), relabelled if it opens running code. */
function withInertLanguage(line: string): string {
  const at = nestedStart(line);
  const run = fenceRunAt(line, at);
  if (!run) return line;
  const info = line.slice(run.end);
  const language = /^[ \t]*(\S*)/.exec(info)?.[1] ?? "";
  if (!runs(language)) return line;
  return `${line.slice(0, run.end)}text ${info.trimStart()}`;
}

function openingFence(line: string): Fence | null {
  const indent = indentOf(line);
  if (indent > 3) return null;
  const run = fenceRunAt(line, indent);
  if (!run) return null;
  // A backtick fence's info string has no backtick (else the line is inline code).
  if (run.char === "`" && line.includes("`", run.end)) return null;
  return { char: run.char, length: run.end - indent, indent };
}

function closes(line: string, fence: Fence): boolean {
  const indent = indentOf(line);
  if (indent > 3) return false;
  const run = fenceRunAt(line, indent);
  return run !== null && run.char === fence.char && run.end - indent >= fence.length && line.slice(run.end).trim() === "";
}

export function sanitiseMarkdown(markdown: string): string {
  let fence: Fence | null = null;
  return markdown
    .split("\n")
    .map((raw) => {
      const line = withInertLanguage(withoutMarkers(withoutTemplater(raw)));
      if (fence) {
        if (closes(line, fence)) {
          fence = null;
          return line;
        }
        // Less indented than its fence: the fence was in a list item that has ended, so this is text.
        if (line.trim() === "" || indentOf(line) >= fence.indent) return line;
        fence = null;
      }
      fence = openingFence(line);
      return fence ? line : sanitiseInline(line);
    })
    .join("\n");
}
