/**
 * Prompt caches for the scripted servers, computed as each provider documents them, from the
 * request body alone (a token is four characters):
 *
 * - Anthropic: the prompt runs tools → system → messages; a block marked `cache_control` ends a
 *   cacheable prefix. A marked prefix seen before (same model) within five minutes of its last use
 *   and at least the model's minimum long is read; the longest marked prefix that is long enough and
 *   not read is written. Reads and writes refresh the five minutes. An unmarked prompt is never cached.
 * - OpenAI: automatic. The longest prefix shared with a prompt seen in the last ten minutes is
 *   cached once it reaches 1,024 tokens, in steps of 128 tokens (`prompt_tokens_details.cached_tokens`).
 */

/** Anthropic's minimum cacheable prompt length per model (the same documented table, kept apart from Synapse's). */
const ANTHROPIC_MINIMUMS: readonly (readonly [string, number])[] = [
  ["claude-opus-4-6", 4096],
  ["claude-opus-4-5", 4096],
  ["claude-haiku-4-5", 4096],
  ["claude-sonnet-4-6", 2048],
  ["claude-3-5-haiku", 2048],
  ["claude-3-haiku", 2048],
];

const FIVE_MINUTES = 5 * 60_000;
const TEN_MINUTES = 10 * 60_000;

const tokens = (chars: number) => Math.ceil(chars / 4);

export interface CacheUsage {
  /** Input tokens neither read from nor written to the cache. */
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

export interface PromptCache {
  anthropic(body: unknown): CacheUsage;
  /** `prompt`: the prompt tokens in all; `cached`: of them, read from the cache. */
  openai(body: unknown): { prompt: number; cached: number };
}

interface Segment {
  readonly text: string;
  readonly marked: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A block as the cache sees it: its content without the mark. */
function segmentOf(block: unknown): Segment {
  if (!isRecord(block)) return { text: typeof block === "string" ? block : JSON.stringify(block), marked: false };
  const { cache_control: mark, ...rest } = block;
  return { text: typeof rest.text === "string" ? rest.text : JSON.stringify(rest), marked: mark !== undefined };
}

function anthropicSegments(body: Record<string, unknown>): Segment[] {
  const out: Segment[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) out.push(segmentOf(tool));
  if (typeof body.system === "string") out.push({ text: body.system, marked: false });
  else for (const block of Array.isArray(body.system) ? body.system : []) out.push(segmentOf(block));
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    const content = isRecord(message) ? message.content : undefined;
    if (typeof content === "string") out.push({ text: content, marked: false });
    else for (const block of Array.isArray(content) ? content : []) out.push(segmentOf(block));
  }
  return out;
}

export function createPromptCache(now: () => number = Date.now): PromptCache {
  const anthropicSeen = new Map<string, number>();
  const openaiSeen: { text: string; at: number }[] = [];
  return {
    anthropic(raw) {
      const body = isRecord(raw) ? raw : {};
      const model = typeof body.model === "string" ? body.model : "";
      const minimum = ANTHROPIC_MINIMUMS.find(([prefix]) => model.startsWith(prefix))?.[1] ?? 1024;
      const segments = anthropicSegments(body);
      const total = tokens(segments.reduce((sum, s) => sum + s.text.length, 0));
      const at = now();
      // Each marked prefix long enough to be cached, shortest first: its key and its tokens.
      const prefixes: { key: string; tokens: number }[] = [];
      let chars = 0;
      segments.forEach((segment, index) => {
        chars += segment.text.length;
        if (!segment.marked || tokens(chars) < minimum) return;
        prefixes.push({ key: `${model}\u0000${JSON.stringify(segments.slice(0, index + 1).map((s) => s.text))}`, tokens: tokens(chars) });
      });
      const fresh = (key: string) => {
        const seen = anthropicSeen.get(key);
        return seen !== undefined && at - seen <= FIVE_MINUTES;
      };
      const read = [...prefixes].reverse().find((p) => fresh(p.key))?.tokens ?? 0;
      const longest = prefixes[prefixes.length - 1]?.tokens ?? 0;
      const write = longest > read ? longest - read : 0;
      for (const p of prefixes) anthropicSeen.set(p.key, at);
      return { input: total - read - write, cacheRead: read, cacheWrite: write };
    },
    openai(raw) {
      const body = isRecord(raw) ? raw : {};
      // The schema and the messages in order, as OpenAI caches them.
      const text = JSON.stringify(body.response_format ?? null) + (Array.isArray(body.messages) ? body.messages : []).map((m) => (isRecord(m) ? `${String(m.role)}\u0000${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}\u0000` : "")).join("");
      const at = now();
      let shared = 0;
      for (const seen of openaiSeen) {
        if (at - seen.at > TEN_MINUTES) continue;
        let i = 0;
        const limit = Math.min(seen.text.length, text.length);
        while (i < limit && seen.text.charCodeAt(i) === text.charCodeAt(i)) i++;
        shared = Math.max(shared, i);
      }
      openaiSeen.push({ text, at });
      const sharedTokens = Math.floor(shared / 4);
      const cached = sharedTokens >= 1024 ? 1024 + Math.floor((sharedTokens - 1024) / 128) * 128 : 0;
      return { prompt: tokens(text.length), cached };
    },
  };
}
