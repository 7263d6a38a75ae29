/**
 * The files a query's agent read, from the SDK's message stream. The model's Read call (an
 * assistant `tool_use` block) names the file; its result comes back in a user message as a
 * `tool_result` block (the text the model reads, with line numbers) and, from current SDKs, as the
 * tool's structured output (`tool_use_result`: `{type: "text", file: {filePath, content}}`). A read
 * counts only when it answers a Read call we saw and is not an error: a refused call, a file that
 * does not exist, or a result we cannot tie to its call reports nothing.
 */
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import * as z from "zod";

const ToolResultBlock = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  is_error: z.boolean().nullish(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().nullish() }))]).nullish(),
});

const ReadOutput = z.looseObject({
  type: z.literal("text"),
  file: z.looseObject({ filePath: z.string(), content: z.string() }),
});

/** Claude Code's Read marks each line with its number ("    12→text" or "    12\ttext") and may append reminders. */
function withoutReadMarkup(text: string): string {
  return text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\d+(?:→|\t)/, ""))
    .join("\n")
    .trim();
}

function blockText(content: z.infer<typeof ToolResultBlock>["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("\n");
}

export interface ReadResult {
  /** The file as the Read call named it (absolute, or relative to the agent's folder). */
  readonly path: string;
  readonly text: string;
}

/**
 * The reads `message` completes, given the Read calls still waiting for a result (tool_use id →
 * the file they named); each call answered, read or not, is taken off `pending`.
 */
export function readResults(message: SDKUserMessage, pending: Map<string, string>): ReadResult[] {
  const content = message.message.content;
  if (!Array.isArray(content)) return [];
  const results = content.flatMap((block: unknown) => {
    const parsed = ToolResultBlock.safeParse(block);
    return parsed.success && pending.has(parsed.data.tool_use_id) ? [parsed.data] : [];
  });
  const structured = ReadOutput.safeParse(message.tool_use_result);
  const out: ReadResult[] = [];
  for (const result of results) {
    const path = pending.get(result.tool_use_id) ?? "";
    pending.delete(result.tool_use_id);
    if (result.is_error) continue;
    // The structured output belongs to the message's one tool result; with several, each keeps its own text.
    const text = structured.success && results.length === 1 ? structured.data.file.content : withoutReadMarkup(blockText(result.content));
    out.push({ path, text });
  }
  return out;
}
