/** Which window an OpenAI-compatible request must fit, and the output limit that keeps it inside. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SynapseError } from "../../../src/core/errors";
import { MIN_REPLY_TOKENS } from "../../../src/providers/ollama/context-window";
import { fitOutput, refusedPromptTokens, resolveWindow, type WindowInUse } from "../../../src/providers/openai/context-window";

describe("the window in use", () => {
  it("is the server's, lowered (never raised) by the setting", () => {
    const llama = { tokens: 4096, source: "llama-server" } as const;
    expect(resolveWindow(llama, 0, 0)).toEqual({ tokens: 4096, from: "server", source: "llama-server" });
    expect(resolveWindow(llama, 2048, 0)).toEqual({ tokens: 2048, from: "setting", source: "llama-server" });
    expect(resolveWindow(llama, 32768, 0)).toEqual({ tokens: 4096, from: "server", source: "llama-server" });
  });

  it("lets the setting raise Ollama's /v1 default, within the model's own limit", () => {
    const ollama = { tokens: 4096, source: "Ollama", settableUpTo: 32768 } as const;
    expect(resolveWindow(ollama, 0, 0).tokens).toBe(4096);
    expect(resolveWindow(ollama, 16384, 0)).toEqual({ tokens: 16384, from: "setting", source: "Ollama" });
    expect(resolveWindow(ollama, 65536, 0).tokens).toBe(32768);
  });

  it("is the setting, else the documented window, else unknown when the server says nothing", () => {
    expect(resolveWindow(null, 6000, 128000)).toEqual({ tokens: 6000, from: "setting", source: null });
    expect(resolveWindow(null, 0, 128000)).toEqual({ tokens: 128000, from: "known", source: null });
    expect(resolveWindow(null, 0, 0)).toEqual({ tokens: 0, from: "none", source: null });
  });
});

describe("the output limit sent", () => {
  const windowOf = (tokens: number): WindowInUse => ({ tokens, from: "server", source: "vLLM" });

  it("always leaves prompt and reply within the window, and never exceeds the step's limit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 512, max: 200_000 }), (prompt, limit, tokens) => {
        let sent: number;
        try {
          sent = fitOutput(prompt, limit, windowOf(tokens), "m");
        } catch (error) {
          expect(SynapseError.isInstance(error) && error.kind).toBe("capability");
          expect(prompt + MIN_REPLY_TOKENS).toBeGreaterThan(tokens);
          return;
        }
        expect(prompt + sent).toBeLessThanOrEqual(tokens);
        expect(sent).toBeGreaterThanOrEqual(Math.min(limit > 0 ? limit : MIN_REPLY_TOKENS, MIN_REPLY_TOKENS));
        if (limit > 0) expect(sent).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it("is the step's own limit when the window is not known", () => {
    expect(fitOutput(50_000, 8192, { tokens: 0, from: "none", source: null }, "m")).toBe(8192);
  });
});

describe("the prompt's count in a refusal for size", () => {
  it("is read from llama-server's, vLLM's and LM Studio's messages, and is null when there is none", () => {
    expect(refusedPromptTokens("request (4915 tokens) exceeds the available context size (4096 tokens), try increasing it")).toBe(4915);
    expect(refusedPromptTokens("This model's maximum context length is 4096 tokens. However, you requested 5939 tokens (4915 in the messages, 1024 in the completion).")).toBe(4915);
    expect(refusedPromptTokens("The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 4915 >= n_ctx: 4096).")).toBe(4915);
    expect(refusedPromptTokens("context length exceeded")).toBeNull();
  });
});
