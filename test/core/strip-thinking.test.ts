import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripThinking } from "../../src/core/json-repair";

/** The regexes the closed blocks were removed with before they became one pass. */
const regexWithoutBlocks = (text: string) => text.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, "").replace(/^[\s\S]*?<\/think(?:ing)?>/i, "");

const replyish = fc.stringMatching(/^(?:<think>|<\/think>|<THINKING>|<\/thinking>|<thinkin>|[<>/a {}"])*$/, { maxLength: 40 });

describe("reasoning blocks", () => {
  it("are removed as the regular expressions removed them (property)", () => {
    fc.assert(
      fc.property(replyish, (text) => {
        // Without an unclosed opening tag left, stripThinking returns exactly the text without its blocks.
        const expected = regexWithoutBlocks(text);
        if (!/<think(?:ing)?>/i.test(expected)) expect(stripThinking(text)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it("end at once on a megabyte of opening tags", () => {
    expect(stripThinking(`{"a": 1}${"<think>".repeat(150_000)}`)).toBe('{"a": 1}');
  });
});
