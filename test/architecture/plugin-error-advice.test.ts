/**
 * Every failure Obsidian can show says what to do in Obsidian: a `SynapseError` whose message
 * gives terminal advice (a flag, a `synapse …` command, an environment variable) must carry a
 * `pluginMessage` naming the setting or the palette command instead. Read from the source, so a
 * new error with CLI-only advice fails here until it has its Obsidian wording.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(__dirname, "../../src");

/** Folders that never run in Obsidian: their errors are only ever read in a terminal (batch/ runs in both). */
const TERMINAL_ONLY = ["cli/", "bridge/", "mcp/", "vault/node-"];

/**
 * Errors whose terminal advice is the only advice there is, by file and the words that mark them.
 * The bridge is a program run in a terminal, so starting it or setting its environment is said the
 * same way in Obsidian; `--keep` is parsed only from the CLI's flags.
 */
const ALLOWED: readonly { readonly file: string; readonly marks: string; readonly why: string }[] = [
  { file: "providers/cli/bridge-errors.ts", marks: "start the bridge with", why: "the bridge is started in a terminal" },
  { file: "providers/cli/cli-provider.ts", marks: "where the bridge runs", why: "the agent's key lives in the bridge's environment" },
  { file: "lint/contradictions.ts", marks: "--keep takes", why: "only the CLI parses --keep" },
];

const CLI_ADVICE = /--[a-z][a-z-]+|[`"(]synapse [a-z]|\bSYNAPSE_[A-Z_]+|\b[A-Z]+_API_KEY\b|environment variable/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** The text of each `new SynapseError(…)` call, up to its closing parenthesis. */
function errorCalls(text: string): string[] {
  const calls: string[] = [];
  for (let at = text.indexOf("new SynapseError("); at >= 0; at = text.indexOf("new SynapseError(", at + 1)) {
    let depth = 0;
    let end = at + "new SynapseError".length;
    for (; end < text.length; end++) {
      if (text[end] === "(") depth++;
      else if (text[end] === ")" && --depth === 0) break;
    }
    calls.push(text.slice(at, end + 1));
  }
  return calls;
}

describe("errors Obsidian shows", () => {
  const offending = sourceFiles(SRC).flatMap((path) => {
    const file = relative(SRC, path).replace(/\\/g, "/");
    if (TERMINAL_ONLY.some((folder) => file.startsWith(folder))) return [];
    return errorCalls(readFileSync(path, "utf8"))
      .filter((call) => CLI_ADVICE.test(call) && !call.includes("pluginMessage"))
      .filter((call) => !ALLOWED.some((a) => a.file === file && call.includes(a.marks)))
      .map((call) => `${file}: ${call.slice(0, 160)}`);
  });

  it("give advice for Obsidian where their terminal advice names a flag, a command or an environment variable", () => {
    expect(offending).toEqual([]);
  });

  it("finds terminal advice at all (the scan reads the calls it should)", () => {
    const calls = errorCalls(readFileSync(join(SRC, "providers/call.ts"), "utf8"));
    expect(calls.some((call) => CLI_ADVICE.test(call) && call.includes("pluginMessage"))).toBe(true);
  });
});
