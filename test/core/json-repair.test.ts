import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as z from "zod";
import { extractJson, firstBalancedObject, parseReply, stripThinking } from "../../src/core/json-repair";

describe("json repair", () => {
  it("takes JSON as it is", () => {
    expect(extractJson('{"a":1}')).toEqual({ a: 1 });
  });

  it("strips fences and leading prose", () => {
    expect(extractJson('Here you go:\n```json\n{"a": [1, 2]}\n```\nAnything else?')).toEqual({ a: [1, 2] });
    expect(extractJson("```\n{\"a\": true}\n```")).toEqual({ a: true });
  });

  it("strips <think> blocks, also unclosed-start ones", () => {
    expect(stripThinking("<think>{not this}</think>{\"a\":1}")).toBe('{"a":1}');
    expect(extractJson('<think>I will answer {"x": 0}</think>\n{"a":2}')).toEqual({ a: 2 });
    expect(extractJson('reasoning…</think>{"a":3}')).toEqual({ a: 3 });
  });

  it("takes the first balanced object, honouring braces inside strings", () => {
    expect(JSON.parse(firstBalancedObject('noise {"a":"}{","b":{"c":1}} trailing {"d":2}') ?? "")).toEqual({ a: "}{", b: { c: 1 } });
    expect(extractJson('The answer is {"a":"quote \\" and } brace"} ok')).toEqual({ a: 'quote " and } brace' });
  });

  it("returns null when there is no JSON object", () => {
    expect(extractJson("Sorry, I cannot do that.")).toBeNull();
    expect(extractJson('{"a": 1')).toBeNull();
  });

  it("finds any object embedded in prose", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean()), { maxKeys: 4 }), fc.stringMatching(/^[^{}`<]*$/), (obj, prose) => {
        expect(extractJson(`${prose}\n${JSON.stringify(obj)}\n${prose}`)).toEqual(obj);
      }),
    );
  });

  it("throws a schema failure in words for a reply that misses fields", () => {
    const schema = z.object({ title: z.string(), tags: z.array(z.string()) });
    expect(() => parseReply('{"title": 3}', schema, "Ollama", "the analysis")).toThrow(/does not follow the schema \(title: .*; tags: .*\)/);
    expect(() => parseReply("no json", schema, "Ollama", "the analysis")).toThrow(/contained no JSON object/);
    expect(parseReply({ title: "t", tags: [] }, schema, "Ollama", "x")).toEqual({ title: "t", tags: [] });
  });
});

describe("a think tag inside the answer's text", () => {
  it("is text, not the start of reasoning", () => {
    const reply = '{"content": "Reasoning models wrap their thoughts in <think> tags."}';
    expect(stripThinking(reply)).toBe(reply);
    expect(stripThinking('{"a": 1} <think> still thinking')).toBe('{"a": 1} ');
  });
});
