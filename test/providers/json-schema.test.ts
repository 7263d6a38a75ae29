import { describe, expect, it } from "vitest";
import * as z from "zod";
import { AnalysisSchema, PagesReplySchema } from "../../src/core/schemas";
import { jsonSchemaFor } from "../../src/providers/json-schema";

describe("JSON schemas for providers", () => {
  const constrained = z.object({ name: z.string().min(1).max(20).regex(/^[a-z]+$/), count: z.number().int().min(0).max(9), tags: z.array(z.string()).max(3) });

  it("drops $schema everywhere and keeps constraints for Ollama", () => {
    const schema = jsonSchemaFor(constrained, "ollama");
    expect(schema).not.toHaveProperty("$schema");
    expect(JSON.stringify(schema)).toContain('"maxLength":20');
  });

  it("drops numeric, length and pattern constraints for the hosted APIs, keeping property names", () => {
    for (const dialect of ["anthropic", "openai"] as const) {
      const text = JSON.stringify(jsonSchemaFor(constrained, dialect));
      for (const keyword of ["minLength", "maxLength", "pattern", "minimum", "maximum", "maxItems", "$schema"]) expect(text).not.toContain(`"${keyword}"`);
      expect(text).toContain('"required":["name","count","tags"]');
    }
    const withFieldNamedLikeKeyword = z.object({ pattern: z.string(), format: z.string() });
    expect(jsonSchemaFor(withFieldNamedLikeKeyword, "openai")).toMatchObject({ properties: { pattern: { type: "string" }, format: { type: "string" } } });
  });

  it("derives the reply schemas from the zod schemas", () => {
    expect(jsonSchemaFor(AnalysisSchema, "openai")).toMatchObject({ type: "object", additionalProperties: false });
    expect(JSON.stringify(jsonSchemaFor(PagesReplySchema, "anthropic"))).toContain('"enum":["entity","concept","source","synthesis","comparison"]');
  });
});
