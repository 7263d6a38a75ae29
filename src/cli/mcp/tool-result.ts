/**
 * How a tool answers: the result as JSON (`structuredContent`, and the same JSON as text for
 * clients that read only text), or an error the agent can act on — `isError` with one sentence,
 * the kind first ("perimeter: …"), so the model sees the refusal instead of a broken call.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toSynapseError } from "../../core/errors";

export function toolResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

export function toolError(error: unknown): CallToolResult {
  const failure = toSynapseError(error, "input");
  return { content: [{ type: "text", text: `${failure.kind}: ${failure.message}` }], isError: true };
}

/** Runs a tool's work and turns whatever it throws into a tool error: a call never breaks the session. */
export async function guarded(work: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return toolResult(await work());
  } catch (error) {
    return toolError(error);
  }
}
