/**
 * Layered repair of model output before anything is spent on a retry: strip `<think>` blocks and
 * code fences, find the object the model meant (json-scan.ts, which also decides whether it was
 * cut off), then parse it as it is or after `jsonrepair` (trailing commas, comments, raw newlines,
 * typographic or single quotes, Python constants), then validate with zod. A reply cut off
 * mid-object is never repaired: closing it would write a truncated page. Only a reply that still
 * fails is a schema failure, and its message says what to fix in words a model can act on.
 */
import { jsonrepair } from "jsonrepair";
import type { z } from "zod";
import { SynapseError } from "./errors";
import { scanObjects } from "./json-scan";

/**
 * Removes reasoning blocks some local models emit before the answer. Text before a lone closing
 * tag is reasoning too; an opening tag that never closes means the rest is reasoning, never the
 * answer, so it is cut off with everything after it.
 */
export function stripThinking(text: string): string {
  const closed = withoutClosedBlocks(text).replace(/^[\s\S]*?<\/think(?:ing)?>/i, "");
  const open = /<think(?:ing)?>/i.exec(closed);
  if (!open) return closed;
  // A tag inside a whole object's string ("reasoning uses <think> tags") is the answer's text.
  const object = scanObjects(closed, 1)[0];
  if (object?.kind === "object") {
    const start = closed.indexOf(object.text);
    if (start !== -1 && start < open.index && start + object.text.length > open.index) return closed;
  }
  return closed.slice(0, open.index);
}

const OPEN_TAG = /<think(?:ing)?>/gi;
const CLOSE_TAG = /<\/think(?:ing)?>/gi;

/**
 * The text without its `<think>…</think>` blocks, as `/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi`
 * removed them, in one pass: an opening tag with no closing tag after it means no later one has
 * one either, where the regex read to the end again from every opening tag.
 */
function withoutClosedBlocks(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    OPEN_TAG.lastIndex = at;
    const open = OPEN_TAG.exec(text);
    if (!open) break;
    CLOSE_TAG.lastIndex = open.index + open[0].length;
    const close = CLOSE_TAG.exec(text);
    if (!close) break;
    out += text.slice(at, open.index);
    at = close.index + close[0].length;
  }
  return out + text.slice(at);
}

/** The first balanced `{…}` in the text, honouring strings and escapes; null when there is none. */
export function firstBalancedObject(text: string): string | null {
  const first = scanObjects(text, 1)[0];
  return first?.kind === "object" ? first.text : null;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a reply held: the value the model meant, an object cut off before it closed, or nothing. */
export type FoundJson = { readonly kind: "value"; readonly value: unknown } | { readonly kind: "truncated" } | { readonly kind: "none" };

/** Strict parse of every span first (a well-formed object beats a repaired guess), then repair. */
function parseSpans(spans: readonly string[]): FoundJson | null {
  for (const span of spans) {
    const parsed = tryParse(span);
    if (parsed.ok && isPlainObject(parsed.value)) return { kind: "value", value: parsed.value };
  }
  for (const span of spans) {
    let repaired: string;
    try {
      repaired = jsonrepair(span);
    } catch {
      continue;
    }
    const parsed = tryParse(repaired);
    if (parsed.ok && isPlainObject(parsed.value)) return { kind: "value", value: parsed.value };
  }
  return null;
}

/**
 * Finds the JSON object a model meant to return: the whole text, a fenced block, or an object
 * after leading prose, repaired when needed. Says `truncated` when the object never closed.
 */
export function findJson(text: string): FoundJson {
  const cleaned = stripThinking(text).trim();
  const whole = tryParse(cleaned);
  if (whole.ok && isPlainObject(whole.value)) return { kind: "value", value: whole.value };
  const candidates: string[] = [];
  for (const match of cleaned.matchAll(/```[a-zA-Z]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    if (match[1]) candidates.push(match[1].trim());
  }
  candidates.push(cleaned);
  let truncated = false;
  for (const candidate of candidates) {
    const scanned = scanObjects(candidate);
    const found = parseSpans(scanned.flatMap((s) => (s.kind === "object" ? [s.text] : [])));
    if (found) return found;
    if (scanned.some((s) => s.kind === "truncated")) truncated = true;
  }
  return truncated ? { kind: "truncated" } : { kind: "none" };
}

/** The value `findJson` found, or null when there is none (or it was cut off). */
export function extractJson(text: string): unknown {
  const found = findJson(text);
  return found.kind === "value" ? found.value : null;
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
  const found: FoundJson = typeof reply === "string" ? findJson(reply) : { kind: "value", value: reply };
  if (found.kind === "truncated") {
    throw new SynapseError("schema", `The ${provider} reply for ${what} was cut off before its JSON object closed; nothing from it is used.`);
  }
  const value = found.kind === "value" ? found.value : null;
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
