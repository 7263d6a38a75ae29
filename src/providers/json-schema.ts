/**
 * JSON Schemas for structured output, derived from the zod schemas (the single source of truth)
 * and normalised for each provider's dialect. Replies are always re-validated with zod, so
 * dropping a constraint here loosens what the server enforces, never what we accept.
 */
import * as z from "zod";

export type SchemaDialect = "ollama" | "anthropic" | "openai";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords the hosted APIs reject or ignore in strict/structured mode. */
const UNSUPPORTED_HOSTED = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "default",
]);

function normalise(node: Json, dialect: SchemaDialect, isRoot: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => normalise(item, dialect, false));
  if (node === null || typeof node !== "object") return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (isRoot && key === "$schema") continue;
    if (dialect !== "ollama" && UNSUPPORTED_HOSTED.has(key)) continue;
    // "properties" maps names to schemas; its keys are field names, not keywords.
    if (key === "properties" && value && typeof value === "object" && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, normalise(sub, dialect, false)]));
      continue;
    }
    out[key] = normalise(value, dialect, false);
  }
  return out;
}

/** The schema a provider is asked to follow, as a plain JSON object. */
export function jsonSchemaFor(schema: z.ZodType, dialect: SchemaDialect): Record<string, unknown> {
  const raw = z.toJSONSchema(schema, { target: "draft-07", io: "output" }) as Json;
  return normalise(raw, dialect, true) as Record<string, unknown>;
}
