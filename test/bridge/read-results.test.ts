/**
 * The files a query's agent read, taken from the SDK's user messages: only results of Read calls
 * we saw, never an error result, the structured output's text when the SDK gives one and the
 * tool_result's text without line numbers or reminders otherwise.
 */
import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { stagedPath } from "../../src/bridge/query-agent";
import { readResults } from "../../src/bridge/read-results";
import { parseEventLine } from "../../src/core/bridge-protocol";

function userMessage(blocks: unknown[], toolUseResult?: unknown): SDKUserMessage {
  return {
    type: "user",
    message: { role: "user", content: blocks },
    parent_tool_use_id: null,
    ...(toolUseResult !== undefined ? { tool_use_result: toolUseResult } : {}),
  } as SDKUserMessage;
}

describe("reads reported by the agent's Read tool", () => {
  it("takes the text from the structured output, and the path from the Read call", () => {
    const pending = new Map([["t1", "wiki/A.md"]]);
    const message = userMessage([{ type: "tool_result", tool_use_id: "t1", content: "     1→# A\n     2→Body" }], { type: "text", file: { filePath: "/tmp/x/wiki/A.md", content: "# A\nBody" } });
    expect(readResults(message, pending)).toEqual([{ path: "wiki/A.md", text: "# A\nBody" }]);
    expect(pending.size).toBe(0);
  });

  it("falls back to the tool_result's text, without line numbers and reminders", () => {
    const pending = new Map([["t1", "wiki/A.md"]]);
    const content = [{ type: "text", text: "     1\t# A\n     2→Body line\n<system-reminder>Check for malware.</system-reminder>" }];
    expect(readResults(userMessage([{ type: "tool_result", tool_use_id: "t1", content }]), pending)).toEqual([{ path: "wiki/A.md", text: "# A\nBody line" }]);
  });

  it("reports nothing for an error result (a missing file, a refused call), yet takes the call off the pending list", () => {
    const pending = new Map([["t1", "wiki/Ghost.md"]]);
    expect(readResults(userMessage([{ type: "tool_result", tool_use_id: "t1", is_error: true, content: "File does not exist." }]), pending)).toEqual([]);
    expect(pending.size).toBe(0);
  });

  it("ignores results of calls that were not Read calls we saw, and user messages without blocks", () => {
    const pending = new Map([["t1", "wiki/A.md"]]);
    const grep = userMessage([{ type: "tool_result", tool_use_id: "other", content: "wiki/A.md" }], { type: "text", file: { filePath: "wiki/A.md", content: "x" } });
    expect(readResults(grep, pending)).toEqual([]);
    expect(readResults({ type: "user", message: { role: "user", content: "hello" }, parent_tool_use_id: null }, pending)).toEqual([]);
    expect(pending.size).toBe(1);
  });

  it("gives each of several results in one message its own text, not one structured output for all", () => {
    const pending = new Map([
      ["t1", "wiki/A.md"],
      ["t2", "wiki/B.md"],
    ]);
    const message = userMessage(
      [
        { type: "tool_result", tool_use_id: "t1", content: "     1→Alpha" },
        { type: "tool_result", tool_use_id: "t2", content: "     1→Beta" },
      ],
      { type: "text", file: { filePath: "wiki/A.md", content: "Alpha" } },
    );
    expect(readResults(message, pending)).toEqual([
      { path: "wiki/A.md", text: "Alpha" },
      { path: "wiki/B.md", text: "Beta" },
    ]);
  });
});

describe("the pages read, on the wire (the answer event)", () => {
  const answer = (read: unknown) =>
    JSON.stringify({
      type: "answer",
      outcome: { ok: true, subtype: "success", message: "A", numTurns: 2 },
      answer: "A",
      read,
      denied: [],
      usage: { inputTokens: 1, outputTokens: 1, costUsd: null },
      model: null,
      durationMs: 1,
    });

  it("keeps well-formed reads and drops, one by one, an absolute path, a climb out of the vault, an extra field", () => {
    const event = parseEventLine(
      answer([
        { path: "wiki/A.md", text: "Alpha" },
        { path: "/etc/passwd", text: "root" },
        { path: "wiki/../../secret.md", text: "x" },
        { path: "wiki/B.md", text: "Beta", trusted: true },
      ]),
    );
    expect(event?.type === "answer" ? event.read : null).toEqual([{ path: "wiki/A.md", text: "Alpha" }, null, null, null]);
  });

  it("reads an answer from a bridge that sends no pages read as having read none", () => {
    const event = parseEventLine(answer(undefined));
    expect(event?.type === "answer" ? event.read : null).toEqual([]);
  });
});

describe("which reads name a staged page", () => {
  it("tidies a relative path, and refuses one that is absolute, a Windows path, or climbs out", () => {
    expect(stagedPath("./wiki//A.md")).toBe("wiki/A.md");
    expect(stagedPath("/etc/passwd")).toBeNull();
    expect(stagedPath("C:/Users/me/wiki/A.md")).toBeNull();
    expect(stagedPath("wiki\\A.md")).toBeNull();
    expect(stagedPath("wiki/../../secret.md")).toBeNull();
  });
});
