/**
 * Layered repair of model output before anything is spent on a retry: strip `<think>` blocks and
 * code fences, take the first balanced `{…}`, then validate with zod. Only a reply that still
 * fails is a schema failure, and its message says what to fix in words a model can act on.
 */
import type { z } from "zod";
import { SynapseError } from "../core/errors";

/** Removes reasoning blocks some local models emit before the answer. */
export function stripThinking(text: string): string {
  return text.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, "").replace(/^[\s\S]*?<\/think(?:ing)?>/i, "");
}

/** The first balanced `{…}` in the text, honouring strings and escapes; null when there is none. */
export function firstBalancedObject(text: string): string | null {
  const start = text.indexOf("{");
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Finds the JSON object a model meant to return: the whole text, a fenced block, or the first
 * balanced object after leading prose. Returns null when none of them parses.
 */
export function extractJson(text: string): unknown {
  const cleaned = stripThinking(text).trim();
  const whole = tryParse(cleaned);
  if (whole.ok) return whole.value;
  const candidates: string[] = [];
  for (const match of cleaned.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) {
    if (match[1]) candidates.push(match[1].trim());
  }
  const balanced = firstBalancedObject(cleaned);
  if (balanced) candidates.push(balanced);
  for (const candidate of candidates) {
    const parsed = tryParse(candidate);
    if (parsed.ok) return parsed.value;
    const inner = firstBalancedObject(candidate);
    if (inner) {
      const again = tryParse(inner);
      if (again.ok) return again.value;
    }
  }
  return null;
}

/** Describes zod issues as short sentences ("pages.0.title: expected string"). */
export function describeSchemaIssues(error: z.ZodError, max = 8): string {
  const lines = error.issues.slice(0, max).map((issue) => `${issue.path.join(".") || "(reply)"}: ${issue.message}`);
  if (error.issues.length > max) lines.push(`and ${error.issues.length - max} more`);
  return lines.join("; ");
}

/**
 * Validates a value (already JSON, e.g. a tool call's input) or a text reply against a schema.
 * Throws a `schema` SynapseError naming the provider and what was wrong.
 */
export function parseReply<T>(reply: unknown, schema: z.ZodType<T>, provider: string, what: string): T {
  const value = typeof reply === "string" ? extractJson(reply) : reply;
  if (value === null || value === undefined) {
    throw new SynapseError("schema", `The ${provider} reply for ${what} contained no JSON object; reply with one JSON object that follows the schema.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new SynapseError("schema", `The ${provider} reply for ${what} does not follow the schema (${describeSchemaIssues(parsed.error)}).`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
