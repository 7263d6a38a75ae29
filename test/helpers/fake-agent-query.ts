/**
 * A stand-in for the SDK's `query()` for fast bridge and provider tests: it plays scripted tool
 * calls through the bridge's own PreToolUse hook and `canUseTool` (as the SDK does), performs the
 * allowed Writes in the staging folder, and ends with a result message shaped like the SDK's.
 * The real SDK is exercised by the e2e tests; this one only saves their run time.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { HookInput, Options, SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import type { QueryFunction } from "../../src/bridge/agent";

export type FakeStep = { readonly tool: string; readonly input: Record<string, unknown> };

export interface FakeAgentScript {
  readonly steps: readonly FakeStep[];
  /** The result's subtype; "success" by default. */
  readonly subtype?: "success" | "error_max_turns" | "error_max_budget_usd" | "error_during_execution";
  /** Text of a success result, e.g. "Not logged in · Please run /login" with isError. */
  readonly resultText?: string;
  readonly isError?: boolean;
  /** Wait for the abort signal after the steps instead of finishing. */
  readonly hang?: boolean;
  /** Streamed text pieces (as partial messages, when the bridge asks for them); the result is their concatenation. */
  readonly text?: readonly string[];
}

export interface FakeAgent {
  readonly query: QueryFunction;
  /** Options of every call, to check what the bridge asked for, and the files staged in its cwd when it started. */
  readonly calls: { prompt: string; options: Options; staged: string[] }[];
}

function filesBelow(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as { isFile(): boolean; parentPath: string; name: string }[])
    .filter((e) => e.isFile())
    .map((e) => resolve(e.parentPath, e.name).slice(root.length + 1).split("\\").join("/"))
    .sort();
}

let counter = 0;

function message(value: Record<string, unknown>): SDKMessage {
  return value as unknown as SDKMessage;
}

async function allowedByBridge(options: Options, step: FakeStep, id: string): Promise<boolean> {
  for (const matcher of options.hooks?.PreToolUse ?? []) {
    for (const hook of matcher.hooks) {
      const input = { hook_event_name: "PreToolUse", tool_name: step.tool, tool_input: step.input, tool_use_id: id } as unknown as HookInput;
      const out = (await hook(input, id, { signal: new AbortController().signal })) as { hookSpecificOutput?: { permissionDecision?: string } };
      if (out.hookSpecificOutput?.permissionDecision === "deny") return false;
    }
  }
  const verdict = await options.canUseTool?.(step.tool, step.input, { signal: new AbortController().signal, toolUseID: id, requestId: id });
  return verdict?.behavior === "allow";
}

export function fakeAgent(script: FakeAgentScript): FakeAgent {
  const calls: { prompt: string; options: Options; staged: string[] }[] = [];
  const query: QueryFunction = ({ prompt, options = {} }) => {
    calls.push({ prompt, options, staged: options.cwd ? filesBelow(options.cwd) : [] });
    return (async function* () {
      yield message({ type: "system", subtype: "init", model: "claude-fake-1", tools: options.tools, cwd: options.cwd });
      for (const step of script.steps) {
        const id = `toolu_fake_${++counter}`;
        yield message({
          type: "assistant",
          message: { id: `msg_fake_${counter}`, content: [{ type: "tool_use", id, name: step.tool, input: step.input }], usage: { input_tokens: 10, output_tokens: 5 } },
        });
        if (!(options.tools as string[] | undefined)?.includes(step.tool)) continue; // not offered: the SDK refuses it
        if (!(await allowedByBridge(options, step, id))) continue;
        if (step.tool === "Write") {
          const target = resolve(options.cwd ?? ".", String(step.input.file_path));
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, String(step.input.content));
          for (const matcher of options.hooks?.PostToolUse ?? []) {
            for (const hook of matcher.hooks) {
              const input = { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { ...step.input, file_path: target }, tool_use_id: id };
              await hook(input as unknown as HookInput, id, { signal: new AbortController().signal });
            }
          }
        }
      }
      if (script.hang) {
        const signal = options.abortController?.signal;
        await new Promise<void>((resolveAbort) => {
          if (!signal || signal.aborted) resolveAbort();
          else signal.addEventListener("abort", () => resolveAbort(), { once: true });
        });
        throw new Error("Claude Code process aborted by user");
      }
      if (script.text && options.includePartialMessages) {
        for (const text of script.text) {
          yield message({ type: "stream_event", event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } } });
        }
      }
      const subtype = script.subtype ?? "success";
      yield message({
        type: "result",
        subtype,
        is_error: script.isError ?? subtype !== "success",
        num_turns: script.steps.length + 1,
        total_cost_usd: 0.0123,
        usage: { input_tokens: 1000, output_tokens: 200, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        permission_denials: [],
        result: script.resultText ?? script.text?.join("") ?? "done",
        errors: subtype === "success" ? [] : [`Reached the limit (${subtype})`],
      });
      if (subtype !== "success") throw new Error(`Claude Code returned an error result: ${subtype}`);
    })();
  };
  return { query, calls };
}
