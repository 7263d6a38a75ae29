/**
 * One pass of a note through the real Anthropic and OpenAI adapters: a request without a result is
 * held with the body the adapter built, a result is served to the adapter and validated by it, and
 * a same-subject question is matched by its content, never by its place in the run.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { NotePass } from "../../src/batch/note-pass";
import type { BatchNote } from "../../src/batch/record";
import { createRunContext } from "../../src/core/run-context";
import type { FetchLike } from "../../src/providers/environment";
import { createProvider } from "../../src/providers/factory";
import { FAST_RETRY, REPLIES, settingsFor, testSecrets } from "../providers/harness";

const SameSchema = z.object({ same: z.boolean() });
const ask = (title: string) => ({ system: "Same subject?", user: `Page A: "${title}"`, schema: SameSchema, name: "same_subject", what: "the same-subject verdict" });

const NOWHERE: FetchLike = () => Promise.reject(new Error("Nothing may reach the network in a batch pass."));
const SOURCE = { path: "notes/Introduction to Bases.md", text: "# Introduction to Bases\n\nBases shows notes as views." };

function emptyNote(): BatchNote {
  return { path: SOURCE.path, hash: "sha256:x", state: "running", message: null, calls: [] };
}

function passFor(protocol: "anthropic" | "openai", note: BatchNote) {
  const pass = new NotePass(note, { provider: protocol, round: 1, noteIndex: 7 });
  const transport = pass.transport(NOWHERE);
  const adapter = createProvider(protocol, { settings: settingsFor(protocol, "https://api.example.com"), secrets: testSecrets(), fetch: transport, streamingFetch: transport, retry: FAST_RETRY });
  return { pass, provider: pass.provider(adapter), run: createRunContext({ signal: pass.signal, timeoutMs: 30_000, source: SOURCE }) };
}

function anthropicReply(input: unknown) {
  return { id: "msg", type: "message", role: "assistant", content: [{ type: "tool_use", id: "t", name: "submit", input }], stop_reason: "tool_use", usage: { input_tokens: 900, output_tokens: 300 } };
}

describe.each(["anthropic", "openai"] as const)("a note's pass through the %s adapter", (protocol) => {
  it("holds the analysis request as the adapter built it, not streamed, and stops the run", async () => {
    const note = emptyNote();
    const { pass, provider, run } = passFor(protocol, note);
    await expect(provider.analyze(SOURCE.text, "", run)).rejects.toMatchObject({ kind: "cancelled" });
    expect(pass.deferred).toBe(true);
    expect(pass.signal.aborted).toBe(true);
    expect(note.calls).toEqual([{ key: "analyze:0", customId: "n7-c0-r1", round: 1, status: "pending", reply: null, error: null }]);
    const [held] = pass.held;
    expect(held?.customId).toBe("n7-c0-r1");
    expect(held?.body).not.toHaveProperty("stream");
    expect(held?.body).not.toHaveProperty("stream_options");
    expect(JSON.stringify(held?.body)).toContain("Bases shows notes as views.");
    expect(held?.body.model).toBe(protocol === "anthropic" ? "claude-haiku-4-5" : "gpt-4.1-mini");
  });

  it("serves a result to the adapter, which validates it, and marks its usage as batch", async () => {
    const analysis = JSON.parse(REPLIES.analysis) as unknown;
    const reply =
      protocol === "anthropic"
        ? anthropicReply(analysis)
        : { choices: [{ message: { content: REPLIES.analysis, refusal: null }, finish_reason: "stop" }], usage: { prompt_tokens: 900, completion_tokens: 300 } };
    const note: BatchNote = { ...emptyNote(), calls: [{ key: "analyze:0", customId: "n7-c0-r1", round: 1, status: "succeeded", reply, error: null }] };
    const { pass, provider, run } = passFor(protocol, note);
    const result = await provider.analyze(SOURCE.text, "", run);
    expect(result.title).toBe("Introduction to Bases");
    expect(pass.deferred).toBe(false);
    expect(run.usage.entries.map((e) => ({ input: e.inputTokens, output: e.outputTokens, mode: e.mode }))).toEqual([{ input: 900, output: 300, mode: "batch" }]);
  });

  it("a malformed result fails as a malformed reply does, with nothing held", async () => {
    const reply = protocol === "anthropic" ? anthropicReply({ title: 42 }) : { choices: [{ message: { content: '{"title": 42}' }, finish_reason: "stop" }] };
    const note: BatchNote = { ...emptyNote(), calls: [{ key: "analyze:0", customId: "n7-c0-r1", round: 1, status: "succeeded", reply, error: null }] };
    const { pass, provider, run } = passFor(protocol, note);
    await expect(provider.analyze(SOURCE.text, "", run)).rejects.toMatchObject({ kind: "schema" });
    expect(pass.deferred).toBe(false);
  });

  it("a same-subject question is answered only by the result for that very pair; another pair is held and the write refused", async () => {
    const first = emptyNote();
    const one = passFor(protocol, first);
    const asking = one.provider.ask?.bind(one.provider);
    expect(asking).toBeDefined();
    await expect(asking!(ask("Mercury"), one.run)).rejects.toMatchObject({ kind: "request" });
    // The planning goes on (other questions join the same round); the write does not happen.
    expect(one.pass.signal.aborted).toBe(false);
    expect(one.pass.beforeWrite()).toBe(false);
    expect(one.pass.signal.aborted).toBe(true);
    const mercury = first.calls[0]!;
    expect(mercury.key).toMatch(/^ask:[0-9a-f]{24}$/);

    const verdict = protocol === "anthropic" ? anthropicReply({ same: true }) : { choices: [{ message: { content: '{"same": true}' }, finish_reason: "stop" }] };
    const answered: BatchNote = { ...emptyNote(), calls: [{ ...mercury, status: "succeeded", reply: verdict }] };
    const two = passFor(protocol, answered);
    await expect(two.provider.ask!(ask("Mercury"), two.run)).resolves.toEqual({ same: true });
    await expect(two.provider.ask!(ask("Venus"), two.run)).rejects.toMatchObject({ kind: "request" });
    expect(two.pass.held).toHaveLength(1);
    expect(answered.calls.map((c) => c.status)).toEqual(["succeeded", "pending"]);
    expect(two.pass.beforeWrite()).toBe(false);

    // The vault changed: this time the only question is about another pair. Mercury's verdict is not its answer.
    const three = passFor(protocol, { ...emptyNote(), calls: [{ ...mercury, status: "succeeded", reply: verdict }] });
    await expect(three.provider.ask!(ask("Venus"), three.run)).rejects.toMatchObject({ kind: "request" });
    expect(three.pass.held).toHaveLength(1);
  });
});
