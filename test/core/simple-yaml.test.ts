/**
 * The fast frontmatter reader answers only where it gives exactly what the `yaml` package gives
 * (kept here as the reference), and gives up on the rest; splitFrontmatter, which tries it first,
 * therefore reads every note as the `yaml` package alone did.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { splitFrontmatter } from "../../src/core/markdown";
import { parseSimpleYaml } from "../../src/core/simple-yaml";
import { CORPUS } from "../helpers/corpus";
import { itWithCorpus } from "../helpers/with-corpus";

type Reference = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

function viaYaml(raw: string): Reference {
  try {
    return { ok: true, value: parse(raw, { maxAliasCount: 50, prettyErrors: false }) };
  } catch {
    return { ok: false };
  }
}

/** splitFrontmatter as it was with the `yaml` package alone. */
function referenceSplit(raw: string): { frontmatter: unknown; invalid: boolean } {
  const parsed = viaYaml(raw);
  if (!parsed.ok) return { frontmatter: {}, invalid: true };
  if (parsed.value === null || parsed.value === undefined) return { frontmatter: {}, invalid: false };
  if (typeof parsed.value === "object" && !Array.isArray(parsed.value)) return { frontmatter: parsed.value, invalid: false };
  return { frontmatter: {}, invalid: true };
}

function expectSameAsYaml(raw: string): boolean {
  const fast = parseSimpleYaml(raw);
  const split = splitFrontmatter(`---\n${raw}\n---\nbody`);
  // The fences take a trailing "\r" of the last line with them: compare what they hold.
  const reference = referenceSplit(split.rawFrontmatter);
  expect({ frontmatter: split.frontmatter, invalid: split.frontmatterInvalid }).toStrictEqual(reference);
  if (fast === undefined) return false;
  const yaml = viaYaml(raw);
  expect(yaml.ok).toBe(true);
  if (yaml.ok) expect(fast).toStrictEqual(yaml.value);
  return true;
}

/** Bits of values on the edges of what YAML reads as a plain string. */
const bit = fc.constantFrom(
  "a", "Z", "é", "中", "Привет", "1", "0x1F", "1e3", "-", " ", "  ", ":", ": ", "#", " #", "'", "''", '"', "\\", "[", "]",
  "{", "}", ",", "&", "*", "!", "|", ">", "%", "@", "`", "?", "~", ".", "true", "null", "False", "NULL", "yes", "<<", "\t",
  "\u00a0", "🙂", "\r", "\u0085", "\u0001", "---", "...", "[]", "{}", "2026-12-04", "2026", "-12-04", "12", "0000-00-00",
);
const value = fc.array(bit, { minLength: 0, maxLength: 6 }).map((bits) => bits.join(""));
const key = fc.constantFrom("title", "aliases", "tags", "sources", "a", "Key_1", "x-y", "true", "Null", "1a", "é", "__proto__");
const indent = fc.constantFrom("", " ", "  ", "    ");
const line = fc.oneof(
  fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(key, value).map(([k, v]) => `${k}:${v}`),
  key.map((k) => `${k}:`),
  fc.tuple(indent, value).map(([i, v]) => `${i}- ${v}`),
  indent.map((i) => `${i}-`),
  fc.tuple(indent, value).map(([i, v]) => `${i}${v}`),
  fc.constant(""),
  fc.constant("# a comment"),
);

describe("parseSimpleYaml", () => {
  // The generated frontmatter makes the yaml package warn (unknown tags, ambiguous anchors) by the hundred.
  beforeAll(() => {
    vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
  });

  it("gives what the yaml package gives, or gives up", () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }).map((lines) => lines.join("\n")), (raw) => {
        if (expectSameAsYaml(raw)) answered += 1;
      }),
      { numRuns: 4000 },
    );
    // The generator reaches the fast path often enough for the comparison to mean something.
    expect(answered).toBeGreaterThan(400);
  });

  it("reads the simple kinds of frontmatter notes carry", () => {
    const cases: [string, unknown][] = [
      ["title: Hello world", { title: "Hello world" }],
      ["aliases:\n  - One\n  - Two words\npublish: true", { aliases: ["One", "Two words"], publish: true }],
      ["tags:\n- a\n-\n- 'it''s'\n- \"quoted: yes\"", { tags: ["a", null, "it's", "quoted: yes"] }],
      ["description: C# and F#, [brackets] {braces}\nmobile: FALSE\nlocalized: Null", { description: "C# and F#, [brackets] {braces}", mobile: false, localized: null }],
      ["empty:\nnext: x", { empty: null, next: "x" }],
      ["type: entity\ntags: []\nextra: {}", { type: "entity", tags: [], extra: {} }],
      ["", null],
      // A page as Synapse writes it: its days are strings, as the yaml package reads them.
      [
        "type: concept\ntitle: Canvas\nsources:\n  - sources/Editing and formatting/Embed web pages.md\nlang: en\ntags: []\ncreated: 2026-12-04\nupdated: 2026-12-04\nsynapse_id: sy-082f02520bbd28ff",
        { type: "concept", title: "Canvas", sources: ["sources/Editing and formatting/Embed web pages.md"], lang: "en", tags: [], created: "2026-12-04", updated: "2026-12-04", synapse_id: "sy-082f02520bbd28ff" },
      ],
    ];
    for (const [raw, expected] of cases) {
      expect(parseSimpleYaml(raw)).toStrictEqual(expected);
      expect(expectSameAsYaml(raw)).toBe(true);
    }
  });

  it("gives up on what it does not read exactly", () => {
    const hard = [
      "title: a: b", // a nested mapping, an error in YAML
      "title: a #comment",
      "title: a\ntitle: b", // a repeated key is an error
      "true: x",
      "date: 2024-1-01",
      "date: 2024-01-01T10:00:00Z",
      "count: 3",
      "tags: [a, b]",
      "tags: [ ]",
      "tags:\n  - []",
      "title: \"esc\\u0041\"",
      "title: 'open",
      "aliases:\n  - a\n - b",
      "aliases:\n  -\n    - nested",
      "parent:\n  child: x",
      "title: first\n  continued",
      "title:\tx",
      "title: x\r",
      "# only a comment\ntitle: x",
      "title: &anchor x\nother: *anchor",
      " ",
    ];
    for (const raw of hard) {
      expect(parseSimpleYaml(raw), raw).toBeUndefined();
      expectSameAsYaml(raw);
    }
  });

  itWithCorpus("reads the corpus's frontmatter as the yaml package does, nearly all of it without the full parser", () => {
    const fence = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
    let seen = 0;
    let answered = 0;
    for (const name of readdirSync(CORPUS, { recursive: true, encoding: "utf8" })) {
      if (!name.endsWith(".md")) continue;
      const raw = fence.exec(readFileSync(join(CORPUS, name), "utf8").replace(/^\uFEFF/, ""))?.[1];
      if (raw === undefined) continue;
      seen += 1;
      if (expectSameAsYaml(raw)) answered += 1;
    }
    expect(seen).toBeGreaterThan(5000);
    expect(answered / seen).toBeGreaterThan(0.9);
  });
});
