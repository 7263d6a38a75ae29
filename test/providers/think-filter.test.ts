import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ThinkFilter } from "../../src/providers/think-filter";

/** The text cut at the given points, in order, as a stream would deliver it. */
function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    out.push(text.slice(from, point));
    from = point;
  }
  return out;
}

function filtered(parts: readonly string[]): string {
  const filter = new ThinkFilter();
  return parts.map((p) => filter.push(p)).join("") + filter.end();
}

const answer = fc.string().filter((s) => !s.trimStart().startsWith("<") && !s.includes("</think>"));

describe("ThinkFilter", () => {
  it("drops a leading <think> block however the stream is cut, and keeps the answer whole", () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !s.includes("</think>")), answer, fc.array(fc.nat()), (thought, text, cuts) => {
        const reply = `  <think>${thought}</think>\n${text}`;
        expect(filtered(pieces(reply, cuts))).toBe(text.trimStart());
      }),
    );
  });

  it("passes an answer without a leading block through unchanged, a later <think> included", () => {
    fc.assert(
      fc.property(answer, fc.array(fc.nat()), (text, cuts) => {
        const reply = `${text}x <think>not reasoning</think>`;
        expect(filtered(pieces(reply, cuts))).toBe(reply);
      }),
    );
  });

  it("gives back a possible opening the stream never finished", () => {
    expect(filtered(["<thi"])).toBe("<thi");
    expect(filtered(["<think>never closed"])).toBe("");
  });

  it("drops the white space after the block when it comes in a later piece (a seed fast-check found)", () => {
    expect(filtered(["  <think></think>", "\n"])).toBe("");
    expect(filtered(["<think>x</think>", " \n", "Answer"])).toBe("Answer");
  });
});
