import { describe, expect, it } from "vitest";
import { describeIgnoredOptions, sanitiseOptions } from "../../src/providers/advanced-options";

describe("advanced options", () => {
  it("keeps tuning options and drops keys that would steer the request", () => {
    const { options, ignored } = sanitiseOptions({ temperature: 0.2, top_p: 0.9, Model: "x", messages: "[]", response_format: "text", tools: "[]", stream: true, num_ctx: 8192 });
    expect(options).toEqual({ temperature: 0.2, top_p: 0.9, num_ctx: 8192 });
    expect(ignored).toEqual(["Model", "messages", "response_format", "tools", "stream"]);
    expect(describeIgnoredOptions("Ollama", ["stream"])).toEqual(['Ollama: advanced option "stream" is ignored because Synapse sets it itself.']);
  });
});
