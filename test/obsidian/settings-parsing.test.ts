import { describe, expect, it } from "vitest";
import { presetFor } from "../../src/ui/settings/api-sections";
import { modelOptions } from "../../src/ui/settings/ollama-section";
import { parseFolderList } from "../../src/ui/settings/privacy-section";
import { parseNumber } from "../../src/ui/settings/rows";

describe("reading what the user typed in the settings", () => {
  it("parses numbers against a range and says what is wanted", () => {
    expect(parseNumber(" 5 ", { min: 1, max: 10, integer: true })).toBe(5);
    expect(parseNumber("100,000", { min: 0, integer: true })).toBe(100000);
    expect(parseNumber("0.5", { min: 0.01, integer: false })).toBe(0.5);
    expect(parseNumber("1,000.50", { min: 0, integer: false })).toBe(1000.5);
    expect(parseNumber("2.5", { min: 1, max: 10, integer: true })).toBe("Enter a whole number from 1 to 10.");
    expect(parseNumber("", { min: 0, integer: true })).toBe("Enter a whole number 0 or more.");
    expect(parseNumber("-1", { min: 0, integer: true })).toBe("Enter a whole number 0 or more.");
    expect(parseNumber("lots", { min: 1, max: 10, integer: true })).toBe("Enter a whole number from 1 to 10.");
  });

  it("reads a decimal comma, as the user means it", () => {
    expect(parseNumber("0,50", { min: 0, integer: false })).toBe(0.5);
    expect(parseNumber("1,5", { min: 0, integer: false })).toBe(1.5);
    expect(parseNumber("1.000,50", { min: 0, integer: false })).toBe(1000.5);
    expect(parseNumber("1 000,5", { min: 0, integer: false })).toBe(1000.5);
    expect(parseNumber("8.192", { min: 1024, integer: true })).toBe(8192);
    expect(parseNumber("1,500", { min: 0, integer: true })).toBe(1500);
  });

  it("refuses what could be read two ways, and says how to write it", () => {
    // "1,500" dollars: fifteen hundred, or one and a half?
    expect(parseNumber("1,500", { min: 0, integer: false })).toBe('Enter a number 0 or more; for "1,500" write it with a point (1.500) or without the comma.');
    expect(parseNumber("1,50", { min: 0, integer: true })).toBe("Enter a whole number 0 or more.");
    expect(parseNumber("1,2,3", { min: 0, integer: false })).toBe("Enter a number 0 or more.");
    expect(parseNumber("1.000.5,0", { min: 0, integer: false })).toBe("Enter a number 0 or more.");
  });

  it("reads excluded folders one per line, cleaned and without duplicates", () => {
    expect(parseFolderList("Private\n\n  /Journal/ \r\nPrivate\nWork\\Clients")).toEqual(["Private", "Journal", "Work/Clients"]);
    expect(parseFolderList("")).toEqual([]);
  });

  it("recognises a preset from its base URL", () => {
    expect(presetFor("https://api.openai.com/v1")).toBe("openai");
    expect(presetFor("https://openrouter.ai/api/v1/")).toBe("openrouter");
    expect(presetFor("http://127.0.0.1:1234/v1")).toBe("lmstudio");
    expect(presetFor("http://localhost:8080/v1")).toBe("custom");
  });

  it("offers the models a server reports, keeping a configured one it does not", () => {
    const models = [
      { name: "llama3.2:latest", capabilities: ["completion"] },
      { name: "nomic-embed-text:latest", capabilities: ["embedding"] },
    ];
    const chat = (m: { capabilities: readonly string[] }) => m.capabilities.includes("completion");
    expect(modelOptions(models, "llama3.2:latest", chat)).toEqual({ "": "Choose a model", "llama3.2:latest": "llama3.2:latest" });
    expect(modelOptions(models, "mistral", chat)).toEqual({ "": "Choose a model", "llama3.2:latest": "llama3.2:latest", mistral: "mistral (not on this server)" });
    expect(modelOptions([], "mistral", chat)).toEqual({ "": "Load the models first", mistral: "mistral" });
  });
});
