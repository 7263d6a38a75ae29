/**
 * Every JSON schema Synapse sends a server (Ollama `format`, OpenAI `response_format`, Anthropic's
 * tool or output format) compiles to a llama.cpp grammar in the real runtime — what Ollama and
 * llama-server do with it before the first token. The list is checked against the code: a new
 * schema handed to `jsonSchemaFor`, or a new structured one-off request, fails the first test until
 * it is added here. Fast (no generation), so it runs in `npm test`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AnalysisSchema, PagesReplySchema } from "../../src/core/schemas";
import { pairRequest, PairReplySchema } from "../../src/lint/pair-prompt";
import type { PageRecord } from "../../src/lint/snapshot";
import { jsonSchemaFor, type SchemaDialect } from "../../src/providers/json-schema";
import { oneOffRequest } from "../../src/providers/structured-request";
import { sameSubjectRequest } from "../../src/wiki/ingest/model-confirm";
import type { PageRecord as WikiPageRecord } from "../../src/wiki/identity";
import { aPage } from "../builders";
import { ROOT } from "../providers/harness";
import { loadRuntime, skipNotice, type Runtime } from "./runtime";

const page = (title: string): PageRecord =>
  ({ path: `wiki/${title}.md`, text: "", frontmatter: {}, frontmatterInvalid: false, hasFrontmatter: false, body: `${title} is a page.`, title, aliases: [], type: "concept", sources: [], links: [] }) as unknown as PageRecord;

/** Each schema a request sends, by the name the code gives it (a zod export or a request builder). */
const SENT: Record<string, (dialect: SchemaDialect) => Record<string, unknown>> = {
  AnalysisSchema: (dialect) => jsonSchemaFor(AnalysisSchema, dialect),
  PagesReplySchema: (dialect) => jsonSchemaFor(PagesReplySchema, dialect),
  pairRequest: (dialect) => oneOffRequest(dialect, pairRequest(page("A"), page("B"))).schema,
  sameSubjectRequest: (dialect) => oneOffRequest(dialect, sameSubjectRequest(aPage().titled("Zettelkasten").build(), candidate)).schema,
};
const candidate: WikiPageRecord = { path: "wiki/concepts/Zettelkasten method.md", id: "sy-z", type: "concept", title: "Zettelkasten method", aliases: [], locked: false, body: "Small linked cards." };
const DIALECTS: readonly SchemaDialect[] = ["ollama", "openai", "anthropic"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Zod schemas passed to jsonSchemaFor by name, and functions that build a StructuredAsk. */
function schemasInCode(): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(join(ROOT, "src"))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/jsonSchemaFor\(([A-Za-z_$][\w$.]*)\s*,/g)) {
      // `ask.schema` is the one-off request's own schema: its builders are listed below.
      if (match[1] !== "ask.schema") names.add(match[1]!);
    }
    for (const match of text.matchAll(/export function (\w+)\([^)]*\):\s*StructuredAsk</g)) names.add(match[1]!);
  }
  return [...names].sort();
}

let runtime: Runtime;
beforeAll(async () => {
  runtime = await loadRuntime();
  const notice = skipNotice(runtime);
  if (notice) console.log(notice);
});

describe("the schemas Synapse sends", () => {
  it("are all listed here (every jsonSchemaFor call and structured one-off request in src)", () => {
    expect(Object.keys(SENT).sort()).toEqual(schemasInCode());
    // The pair request really sends the strict verdict schema.
    expect(pairRequest(page("A"), page("B")).schema).toBe(PairReplySchema);
  });

  it.each(DIALECTS.flatMap((dialect) => Object.keys(SENT).map((name) => [name, dialect] as const)))("%s (%s dialect) compiles to a llama.cpp grammar", async (name, dialect) => {
    if (!runtime.ok) return;
    const schema = SENT[name]!(dialect);
    const grammar = await runtime.llama.createGrammarForJsonSchema(schema as never);
    expect(grammar.grammar.length).toBeGreaterThan(0);
  });
});
