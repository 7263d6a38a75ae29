/**
 * The two structured requests every model-backed adapter makes — the analysis and the pages —
 * described once: the prompt, the JSON Schema in the adapter's dialect, the zod schema its reply is
 * parsed with, and names for messages. Adapters only put them on the wire.
 */
import type * as z from "zod";
import type { GenerationInput, StructuredAsk } from "../core/provider";
import type { RunContext } from "../core/run-context";
import { AnalysisSchema, LenientPagesReplySchema, PagesReplySchema, type Analysis } from "../core/schemas";
import { jsonSchemaFor, type SchemaDialect } from "./json-schema";
import { analyzePrompt, generatePrompt, type PromptPair } from "./prompts";

export interface StructuredRequest<T> {
  /** "chat" for a one-off request (lint's pair checks). */
  readonly operation: "analyze" | "generate" | "chat";
  readonly pair: PromptPair;
  readonly schema: Record<string, unknown>;
  /** A name for the schema, where a protocol wants one (OpenAI's json_schema.name). */
  readonly schemaName: string;
  readonly replySchema: z.ZodType<T>;
  /** What the reply holds, for error messages ("the analysis"). */
  readonly what: string;
  /** For a prompt that carries the note: how to build it again around fewer of the note's parts (prompt-fit.ts). */
  readonly packing?: NotePacking;
}

/** How a prompt that carries the note is rebuilt around a shorter excerpt of it. */
export interface NotePacking {
  /** The whole note, packed from again each time. */
  readonly text: string;
  /** Ranks the note's parts for the page-writing step; null for the analysis (there is none yet). */
  readonly analysis: Analysis | null;
  /** The prompt around `note`; `partial` when parts of the note were left out. */
  readonly build: (note: string, partial: boolean) => PromptPair;
}

export function analysisRequest(dialect: SchemaDialect, sourceText: string, vaultContext: string, run: RunContext): StructuredRequest<Analysis> {
  const schema = jsonSchemaFor(AnalysisSchema, dialect);
  return {
    operation: "analyze",
    pair: analyzePrompt(sourceText, vaultContext, schema, run),
    schema,
    schemaName: "analysis",
    replySchema: AnalysisSchema,
    what: "the analysis",
    packing: { text: sourceText, analysis: null, build: (note, partial) => analyzePrompt(note, vaultContext, schema, run, partial) },
  };
}

export function pagesRequest(
  dialect: SchemaDialect,
  input: GenerationInput,
  run: RunContext,
): StructuredRequest<z.infer<typeof LenientPagesReplySchema>> {
  const schema = jsonSchemaFor(PagesReplySchema, dialect);
  return {
    operation: "generate",
    pair: generatePrompt(input, schema, run),
    schema,
    schemaName: "wiki_pages",
    replySchema: LenientPagesReplySchema,
    what: "the pages",
    // Packed again from the whole note when the orchestrator's excerpt does not fit the window after all
    // (the exact prompt, a calibrated count); the generate prompt always says how omissions are marked.
    ...(input.note && run.source?.text
      ? { packing: { text: run.source.text, analysis: input.analysis, build: (note: string) => generatePrompt({ ...input, note }, schema, run) } }
      : {}),
  };
}

/** A one-off request (lint's pair checks) in the adapter's dialect: its own prompt, nothing around it. */
export function oneOffRequest<T>(dialect: SchemaDialect, ask: StructuredAsk<T>): StructuredRequest<T> {
  return {
    operation: "chat",
    pair: { system: ask.system, user: ask.user },
    schema: jsonSchemaFor(ask.schema, dialect),
    schemaName: ask.name,
    replySchema: ask.schema,
    what: ask.what,
  };
}
