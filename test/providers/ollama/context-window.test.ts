/**
 * A prompt that outgrew the window it asked for: a note denser in tokens than the chars/3
 * estimate (a CJK note, a model with a small vocabulary) is cut by Ollama with no error, and the
 * reported count is about the window's size — above the estimate, where `promptWasCut` looks.
 * Found by the llama.cpp runtime suite (test/llama/cli.test.ts).
 */
import { describe, expect, it } from "vitest";
import { promptFilledWindowError } from "../../../src/providers/ollama/context-window";
import { promptFilledWindow, promptWasCut } from "../../../src/providers/prompt-read";

describe("a prompt that filled its Ollama window", () => {
  it("is seen when the reported count reaches the window, though it is above the estimate", () => {
    // Ollama kept the last 4,080 of the prompt's real tokens in a 4,096-token window; Synapse had estimated 2,900.
    expect(promptWasCut(4080, 2900)).toBe(false);
    expect(promptFilledWindow(4080, 4096)).toBe(true);
  });

  it("is not seen for a prompt that left its reply room", () => {
    expect(promptFilledWindow(2950, 4096)).toBe(false);
    expect(promptFilledWindow(undefined, 4096)).toBe(false);
    expect(promptFilledWindow(null, 4096)).toBe(false);
  });

  it("is a context failure that says what happened and what to do", () => {
    const error = promptFilledWindowError(4080, 2900, 4096);
    expect(error.kind).toBe("context");
    expect(error.message).toContain("4080 tokens");
    expect(error.message).toContain("4096-token window");
    expect(error.message).toMatch(/shorter note/);
  });
});
