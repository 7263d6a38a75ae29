/**
 * Property tests of the repair against what local models really write: any object, serialised with
 * any mix of the damage below, comes back as the object that was meant; any cut-off prefix of such
 * a reply is never taken for an object, and neither is anything inside an unclosed <think> block.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as z from "zod";
import { extractJson, findJson, parseReply } from "../../src/core/json-repair";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

interface Damage {
  readonly trailingCommas: boolean;
  readonly comments: boolean;
  readonly python: boolean;
  readonly typographicKeys: boolean;
  readonly rawControls: boolean;
  readonly loneBackslashes: boolean;
  readonly wrap: "none" | "fence" | "prose" | "think" | "echo" | "bare";
}

const ESCAPE_LETTERS = new Set(['"', "\\", "/", "b", "f", "n", "r", "t", "u"]);
const QUOTE_LIKE = /["'\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F\u2032\u2033\u0060\u00B4]/;

function stringLiteral(value: string, damage: Damage, typographic: boolean): string {
  let body = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] ?? "";
    const next = value[i + 1] ?? "";
    if (ch === '"') body += '\\"';
    // A model writing `C:\Projects` means a backslash; `\n` would mean a newline, so only lone
    // backslashes before letters that start no escape are written raw.
    else if (ch === "\\") body += damage.loneBackslashes && /[A-Za-z]/.test(next) && !ESCAPE_LETTERS.has(next) ? "\\" : "\\\\";
    else if ((ch === "\n" || ch === "\t") && damage.rawControls) body += ch;
    else if (ch < " ") body += `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
    else body += ch;
  }
  return typographic ? `\u201C${body}\u201D` : `"${body}"`;
}

function serialise(value: Json, damage: Damage): string {
  if (value === null) return damage.python ? "None" : "null";
  if (typeof value === "boolean") return damage.python ? (value ? "True" : "False") : String(value);
  if (typeof value === "number") return JSON.stringify(value);
  if (typeof value === "string") return stringLiteral(value, damage, false);
  const comma = damage.trailingCommas ? "," : "";
  const note = damage.comments ? "/* note */ " : "";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${value.map((v) => serialise(v, damage)).join(", ")}${comma}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const members = entries.map(([k, v]) => {
    const typographic = damage.typographicKeys && !QUOTE_LIKE.test(k) && !k.includes("\\") && ![...k].some((c) => c < " ");
    return `${note}${stringLiteral(k, { ...damage, loneBackslashes: false, rawControls: false }, typographic)}: ${serialise(v, damage)}`;
  });
  const lineComment = damage.comments ? " // the model explains itself\n" : "";
  return `{${members.join(`,${lineComment}`)}${comma}}`;
}

function wrap(json: string, damage: Damage): string {
  switch (damage.wrap) {
    case "fence":
      return `Here is the JSON:\n\`\`\`json\n${json}\n\`\`\`\nLet me know if you need more.`;
    case "prose":
      return `Sure! The object is ${json} — hope that helps.`;
    case "think":
      return `<think>The user wants {"not": "this"} so I will answer.</think>\n${json}`;
    case "echo":
      return `{${json}}`;
    case "bare":
      return json.slice(1);
    default:
      return json;
  }
}

const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\\", "P", "\n", "\t", "é", "{", "}", "[", ":", ",", "\u201C", '"', "/", "*", "'", "#", "7"), maxLength: 12 });
const key = fc.string({ unit: fc.constantFrom("a", "b", "t", "_", "é", " ", "{", "/"), minLength: 1, maxLength: 6 });
const leaf: fc.Arbitrary<Json> = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(key, tie("node"), { maxKeys: 3 })),
})).node;
const object = fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 });
const damage: fc.Arbitrary<Damage> = fc.record({
  trailingCommas: fc.boolean(),
  comments: fc.boolean(),
  python: fc.boolean(),
  typographicKeys: fc.boolean(),
  rawControls: fc.boolean(),
  loneBackslashes: fc.boolean(),
  wrap: fc.constantFrom("none", "fence", "prose", "think", "echo", "bare"),
});

describe("json repair of what local models write", () => {
  it("recovers the object meant from any mix of damage", () => {
    fc.assert(
      fc.property(object, damage, (obj, d) => {
        expect(extractJson(wrap(serialise(obj, d), d))).toEqual(obj);
      }),
      { numRuns: 400 },
    );
  });

  it("never takes an object from a reply cut off before it closed", () => {
    fc.assert(
      fc.property(object, damage, fc.nat(), (obj, d, at) => {
        const full = wrap(serialise(obj, d), { ...d, wrap: d.wrap === "fence" ? "none" : d.wrap });
        // Cut anywhere before the brace that closes the real object (an echo's extra brace may go).
        const closing = d.wrap === "echo" ? full.length - 1 : full.lastIndexOf("}");
        const cut = full.slice(0, at % closing);
        expect(findJson(cut).kind).not.toBe("value");
      }),
      { numRuns: 400 },
    );
  });

  it("never takes an object from inside an unclosed <think> block", () => {
    fc.assert(
      fc.property(object, fc.constantFrom("<think>", "<thinking>", "<THINK>"), (obj, tag) => {
        expect(findJson(`${tag}Let me draft it: ${JSON.stringify(obj)} and check the fields`).kind).toBe("none");
        expect(findJson(`<think>draft</think>${tag}${JSON.stringify(obj)}`).kind).toBe("none");
      }),
    );
  });

  it("recovers each case named in the issue", () => {
    expect(extractJson('{"title": "Ada", "tags": ["a", "b",],}')).toEqual({ title: "Ada", tags: ["a", "b"] });
    expect(extractJson('{"summary": "line one\nline two\tend"}')).toEqual({ summary: "line one\nline two\tend" });
    expect(extractJson("{\u201Ctitle\u201D: \u201CAda\u201D, \"quote\": \"she said \u201Chi\u201D\"}")).toEqual({ title: "Ada", quote: "she said \u201Chi\u201D" });
    expect(extractJson('{\n  // the page\n  "title": "Ada", /* why */ "n": 1\n}')).toEqual({ title: "Ada", n: 1 });
    expect(extractJson('{"a": True, "b": False, "c": None}')).toEqual({ a: true, b: false, c: null });
    expect(extractJson('{{"title": "Ada"}}')).toEqual({ title: "Ada" });
    expect(extractJson('{{"title": "Ada"}')).toEqual({ title: "Ada" });
    expect(extractJson('"title": "Ada", "tags": []}')).toEqual({ title: "Ada", tags: [] });
    expect(extractJson('{"path": "C:\\Projects\\Vault"}')).toEqual({ path: "C:\\Projects\\Vault" });
    expect(extractJson("{'title': 'Ada\\'s notes'}")).toEqual({ title: "Ada's notes" });
  });

  it("says cut off, not missing, for a reply that stops mid-object", () => {
    expect(findJson('{"pages": [{"title": "Ada", "body": "Ada Lovelace was')).toEqual({ kind: "truncated" });
    expect(findJson('```json\n{"title": "Ada",')).toEqual({ kind: "truncated" });
    const schema = z.object({ title: z.string() });
    expect(() => parseReply('{"title": "Ada', schema, "Ollama", "the pages")).toThrow(/cut off before its JSON object closed/);
  });

  it("still checks every recovered object against the schema", () => {
    const schema = z.object({ title: z.string(), count: z.number() });
    expect(() => parseReply('{"title": "Ada", "count": None,}', schema, "Ollama", "the analysis")).toThrow(/does not follow the schema \(count: /);
    expect(parseReply('{"title": "Ada", "count": 2,}', schema, "Ollama", "the analysis")).toEqual({ title: "Ada", count: 2 });
  });

  it("does not turn prose into an object", () => {
    expect(findJson("Sorry, I cannot help with that.").kind).toBe("none");
    expect(findJson("I can't {do} that, it's \"unsafe").kind).not.toBe("value");
  });
});
