/**
 * A small Markdown renderer standing in for Obsidian's (a no-op in the mocks), so an answer looks
 * as Obsidian would show it: paragraphs, headings, lists, quotes, bold, italics, code and
 * `[[wikilinks]]` as internal links. Built with DOM calls; enough for pictures, not a parser.
 */

const INLINE = /(\[\[[^\]]+\]\]|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`|\[[^\]]+\]\([^)]+\))/;

function inline(parent: HTMLElement, text: string): void {
  for (const part of text.split(INLINE)) {
    if (part === "") continue;
    if (part.startsWith("[[")) {
      const [target = "", alias] = part.slice(2, -2).split("|");
      const link = parent.createEl("a", { cls: "internal-link", text: alias ?? target, href: target });
      link.dataset.href = target;
    } else if (part.startsWith("**")) parent.createEl("strong", { text: part.slice(2, -2) });
    else if (part.startsWith("`")) parent.createEl("code", { text: part.slice(1, -1) });
    else if (part.startsWith("[")) {
      const match = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(part);
      parent.createEl("a", { cls: "external-link", text: match?.[1] ?? part, href: match?.[2] ?? "" });
    } else if (part.startsWith("*") && part.length > 2) parent.createEl("em", { text: part.slice(1, -1) });
    else parent.appendText(part);
  }
}

export function renderMarkdown(markdown: string, el: HTMLElement): void {
  for (const block of markdown.replace(/^---\n[\s\S]*?\n---\n/, "").split(/\n{2,}/)) {
    const lines = block.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0) continue;
    const first = lines[0] ?? "";
    const heading = /^(#{1,6})\s+(.*)$/.exec(first);
    if (heading) {
      inline(el.createEl(`h${heading[1]?.length ?? 1}` as "h1", {}), heading[2] ?? "");
      // A heading ends at its line: what follows it is a block of its own.
      if (lines.length > 1) renderMarkdown(lines.slice(1).join("\n"), el);
    } else if (lines.every((l) => /^\s*([-*]|\d+\.)\s/.test(l))) {
      const list = el.createEl(/^\s*\d/.test(first) ? "ol" : "ul");
      for (const line of lines) inline(list.createEl("li"), line.replace(/^\s*([-*]|\d+\.)\s+/, ""));
    } else if (lines.every((l) => l.startsWith(">"))) {
      // A quote holds Markdown of its own (headings, lists), as Obsidian renders it.
      renderMarkdown(block.split("\n").map((l) => l.replace(/^>\s?/, "")).join("\n"), el.createEl("blockquote"));
    } else {
      const p = el.createEl("p");
      lines.forEach((line, i) => {
        if (i > 0) p.createEl("br");
        inline(p, line);
      });
    }
  }
}
