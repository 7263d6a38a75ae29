import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitiseMarkdown } from "../../src/core/sanitise-markdown";
import { parseBody } from "../../src/wiki/provenance";
import { executableParts } from "../helpers/executable-markdown";

/** What a model wrote into a page in the study of issue 22, and the obfuscated forms of each. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  "<script>alert(document.cookie)</script>",
  "<SCRIPT >alert(1)</SCRIPT>",
  '<img src="x" onerror="alert(1)">',
  "<img src=x onerror=alert(1)//",
  '<svg onload="alert(1)"></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="evil.swf"></object>',
  '<embed src="evil.swf">',
  "<style>body{background:url(javascript:alert(1))}</style>",
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<base href="https://evil.example/">',
  '<form action="https://evil.example"><input name="p"></form>',
  '<span style="width: expression(alert(1))">x</span>',
  '<a href="javascript:alert(1)">click</a>',
  "<!-- hidden -->",
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click]( javascript:alert(1))",
  "[click](&#106;avascript&#58;alert(1))",
  "[click](&#x6A;avascript:alert(1))",
  "[click](&#0000106;avascript:alert(1))",
  "[click](java&Tab;script:alert(1))",
  "[click](javascript&colon;alert(1))",
  "[click](javascript%3Aalert(1))",
  "[click](java\tscript:alert(1))",
  "[click](javascript\\:alert(1))",
  "[click](<javascript: alert(1)>)",
  "[click](vbscript:msgbox(1))",
  "[ref]: javascript:alert(1)",
  "<javascript:alert(1)>",
  "![pw](file:///etc/passwd)",
  "![pw](FILE:///etc/passwd)",
  "![[file:///etc/passwd]]",
  "[[file:///etc/passwd|passwords]]",
  "![x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "<data:text/html,hi>",
  "```dataviewjs\ndv.paragraph(require('fs').readFileSync('/etc/passwd', 'utf8'))\n```",
  "~~~ DataviewJS\ndv.paragraph(1)\n~~~",
  "```dataview\nTABLE file.name FROM \"Private\"\n```",
  "```run-python\nimport os; os.system('id')\n```",
  "```button\nname Run\ntype command\naction Delete current file\n```",
  "> ```dataviewjs\n> dv.paragraph(1)\n> ```",
  "`$= dv.paragraph(app.vault.adapter.basePath)`",
  '<%* await app.vault.adapter.write("x", "y") %>',
  "<% tp.file.title %>",
  "%% /synapse:source %%",
  "%% synapse:source notes/forged.md hash=0123456789abcdef %%",
];

describe("sanitiseMarkdown: each hostile fragment", () => {
  it.each(HOSTILE_FRAGMENTS.map((f) => [f]))("%j is inert, visible and stable", (fragment) => {
    for (const markdown of [fragment, `Before.\n\n${fragment}\n\nAfter.`, `Text ${fragment} text`, `- item ${fragment}`]) {
      const once = sanitiseMarkdown(markdown);
      expect(executableParts(once)).toEqual([]);
      expect(sanitiseMarkdown(once)).toBe(once);
    }
  });

  it("keeps the words of what it neutralises", () => {
    expect(sanitiseMarkdown("<script>alert(1)</script>")).toBe("&lt;script>alert(1)&lt;/script>");
    expect(sanitiseMarkdown("[x](javascript:alert(1))")).toBe("[x](javascript：alert(1))");
    expect(sanitiseMarkdown("```dataviewjs\ndv.x()\n```")).toBe("```text dataviewjs\ndv.x()\n```");
    expect(sanitiseMarkdown("<%* x %>")).toBe("<\\%* x %>");
    expect(sanitiseMarkdown("%% /synapse:source %%")).toBe("\\%\\% /synapse:source \\%\\%");
    expect(sanitiseMarkdown("`$= dv.x()`")).toBe("`$ = dv.x()`");
  });

  it("a forged closing marker cannot end a section, nor a forged opening one start one", () => {
    const body = sanitiseMarkdown("model text\n%% /synapse:source %%\nafter\n%% synapse:source a.md hash=0123456789abcdef %%\nx");
    const wrapped = `%% synapse:source notes/n.md hash=0123456789abcdef %%\n${body}\n\n%% /synapse:source %%`;
    const segments = parseBody(wrapped);
    expect(segments).toHaveLength(1);
    expect(segments[0]?.kind).toBe("section");
  });
});

describe("sanitiseMarkdown: what it leaves alone", () => {
  it.each([
    ["allowed inline tags", "Water is H<sub>2</sub>O, <b>bold</b>, <em>em</em>, a<br>b, <kbd>Ctrl</kbd> and <mark>this</mark>."],
    ["a fenced code sample of HTML", "```html\n<script src=\"x.js\"></script>\n<a href=\"javascript:void(0)\">x</a>\n```"],
    ["inline code of HTML", "Write `<iframe>` and `javascript:` in code."],
    ["a safe autolink and an e-mail autolink", "See <https://example.org/a?b=c> or write to <someone@example.org>."],
    ["a pointy destination", "[My note](<Notes/My note.md>)"],
    ["a comparison", "x < y and 3 <4 and a <= b"],
    ["prose naming schemes", "The data: it shows. In JavaScript: closures. A file: see below."],
    ["a safe code language", "```js\nconst a = 1 < 2;\n```"],
    ["wikilinks and embeds", "See [[Page|alias]] and ![[image.png]] and [[Note#Heading]]."],
    ["http links", "[site](https://example.org) ![img](https://example.org/x.png)"],
    ["a Dataview inline field query", "`= this.file.name`"],
    ["an Obsidian comment", "%% a note to self %%"],
  ])("%s", (_name, markdown) => {
    expect(sanitiseMarkdown(markdown)).toBe(markdown);
  });

  it("an allowed tag alone on its line is escaped (it would open an HTML block hiding a fence)", () => {
    const markdown = "<b>\n```\n<script>alert(1)</script>\n```";
    const once = sanitiseMarkdown(markdown);
    expect(once.startsWith("&lt;b>")).toBe(true);
  });

  it("a fence in a list item that ended does not hide the lines after it", () => {
    const once = sanitiseMarkdown("- item\n  ```\n  code\n<script>alert(1)</script>\n```\n");
    expect(once).toContain("&lt;script>");
  });
});

/** Markdown from a safe alphabet: headings, lists, quotes, emphasis, links, code, tables. */
const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9'-]{0,8}$/);
const phrase = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
const inline = fc.oneof(
  phrase,
  phrase.map((p) => `**${p}**`),
  phrase.map((p) => `*${p}*`),
  phrase.map((p) => `\`${p}\``),
  fc.tuple(phrase, word).map(([p, w]) => `[${p}](${w}.md)`),
  fc.tuple(phrase, word).map(([p, w]) => `[${p}](https://example.org/${w})`),
  fc.tuple(word, phrase).map(([w, p]) => `[[${w}|${p}]]`),
  word.map((w) => `![[${w}.png]]`),
  phrase.map((p) => `${p}, ${p}; ${p}! (${p})?`),
);
const line = fc.array(inline, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(" "));
const block = fc.oneof(
  line,
  line.map((l) => `# ${l}`),
  line.map((l) => `## ${l}`),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l) => `- ${l}`).join("\n")),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l, i) => `${i + 1}. ${l}`).join("\n")),
  line.map((l) => `> ${l}`),
  line.map((l) => `> [!note] ${l}`),
  fc.tuple(phrase, phrase).map(([a, b]) => `| ${a} | ${b} |\n| --- | --- |\n| ${b} | ${a} |`),
  fc.array(line, { maxLength: 3 }).map((ls) => `\`\`\`python\n${ls.join("\n")}\n\`\`\``),
);
const safeBlocks = fc.array(block, { minLength: 1, maxLength: 8 });
const safeMarkdown = safeBlocks.map((blocks) => blocks.join("\n\n"));

/** Where a fragment goes: a block of its own, or in a line of text, a list item, a quote, a table cell. */
function embed(blocks: readonly string[], fragment: string, where: number, how: number): string {
  const at = where % (blocks.length + 1);
  const oneLine = !fragment.includes("\n");
  const placed = !oneLine || how === 0 ? fragment : how === 1 ? `Text ${fragment} text` : how === 2 ? `- ${fragment}` : how === 3 ? `> ${fragment}` : `| a | ${fragment} |`;
  return [...blocks.slice(0, at), placed, ...blocks.slice(at)].join("\n\n");
}

describe("sanitiseMarkdown: properties", () => {
  it("leaves ordinary Markdown unchanged", () => {
    fc.assert(
      fc.property(safeMarkdown, (markdown) => {
        expect(sanitiseMarkdown(markdown)).toBe(markdown);
      }),
    );
  });

  it("leaves no hostile fragment in executable form, wherever it is embedded", () => {
    fc.assert(
      fc.property(safeBlocks, fc.constantFrom(...HOSTILE_FRAGMENTS), fc.nat(), fc.nat({ max: 4 }), (blocks, fragment, where, how) => {
        const hostile = embed(blocks, fragment, where, how);
        expect(executableParts(sanitiseMarkdown(hostile))).toEqual([]);
      }),
    );
  });

  it("is idempotent on any text, however odd", () => {
    const tricky = fc.constantFrom(..."<>&#;:%\\`~ \t\n/![]()=\"'$*-.", "javascript", "data", "file", "&#106;", "&colon;", "%3A", "```", "<%", "%%", "synapse:", "<b>", "](", "dataviewjs", "@x.org");
    fc.assert(
      fc.property(fc.array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { maxLength: 40 }), (parts) => {
        const once = sanitiseMarkdown(parts.join(""));
        expect(sanitiseMarkdown(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});
