/** Notes for batch tests and the scripted model's valid replies to them, built from the note's path. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import type { CliIO } from "../../src/cli/io";
import { getCurrentTest } from "vitest/suite";
import { cliEnv } from "../helpers/run-cli";
import type { BatchAnswer, BatchProtocol, ScriptedRequest } from "../helpers/scripted-batch-server";

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vu", "wi", "ze"];

/** A thousand made-up words, scattered so that neighbours share few letters. */
function word(n: number): string {
  const k = (n * 7919) % 1000;
  return SYLLABLES[k % 10]! + SYLLABLES[Math.floor(k / 10) % 10]! + SYLLABLES[Math.floor(k / 100) % 10]!;
}

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

export const MODELS: Record<BatchProtocol, string> = { anthropic: "claude-haiku-4-5", openai: "gpt-4.1-mini" };
export const KEYS = { ANTHROPIC_API_KEY: "sk-ant-batch-test-0123456789", OPENAI_API_KEY: "sk-openai-batch-test-0123456789" };
/** Large enough that log.md's four decimals show half a price exactly. */
export const USAGE = { input: 10_000, output: 5_000 };

/** Notes share no words: each has ten of the made-up words to itself. */
export function titleOf(i: number): string {
  return `${capital(word(i * 10))} ${capital(word(i * 10 + 1))}`;
}

function ownWords(i: number): string {
  return Array.from({ length: 8 }, (_, k) => word(i * 10 + 2 + k)).join(" ");
}

export function notePath(i: number): string {
  return `notes/${titleOf(i)}.md`;
}

export function noteText(i: number): string {
  return `# ${titleOf(i)}\n\n${titleOf(i)}: ${ownWords(i)}.\n`;
}

export function notes(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [notePath(i), noteText(i)]));
}

function titleFromPath(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

export function analysisReply(path: string): string {
  const title = titleFromPath(path);
  return JSON.stringify({ title, language: "en", summary: `${title}: ${ownWords(indexOfTitle(title))}.`, topics: ["places"], entities: [], concepts: [] });
}

function indexOfTitle(title: string): number {
  for (let i = 0; i < 1000; i++) if (titleOf(i) === title) return i;
  return 0;
}

export function pagesReply(path: string): string {
  const title = titleFromPath(path);
  return JSON.stringify({
    pages: [{ type: "source", title, frontmatter: { sources: [path], lang: "en", tags: ["atlas"] }, content: `${title}: ${ownWords(indexOfTitle(title))}.` }],
  });
}

/** Valid replies to every request: the note's analysis, its one page, "different subjects". */
export function validAnswer(request: ScriptedRequest): BatchAnswer {
  const path = request.notePath ?? "";
  if (request.kind === "analysis") return { kind: "text", text: analysisReply(path), usage: USAGE };
  if (request.kind === "pages") return { kind: "text", text: pagesReply(path), usage: USAGE };
  return { kind: "text", text: JSON.stringify({ same: false, reason: "Different places." }), usage: { input: 50, output: 10 } };
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * One CLI invocation in this process: new objects, nothing shared with the one before but the vault on disk.
 * It is stopped as Ctrl-C stops it when the test it runs in ends: vitest's timeout fails a test but
 * does not stop its work, and a collect left running would go on sending and writing during the
 * tests after it.
 */
export async function cli(args: readonly string[], options: { signal?: AbortSignal; onStderr?: (text: string) => void } = {}): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (text) => (stdout += text),
    stderr: (text) => {
      stderr += text;
      options.onStderr?.(text);
    },
    env: cliEnv(KEYS),
    cwd: process.cwd(),
  };
  const signals = [options.signal, getCurrentTest()?.context.signal].filter((signal) => signal !== undefined);
  const code = await main(args, io, signals.length > 0 ? { signal: AbortSignal.any(signals) } : {});
  return { code, stdout, stderr };
}

export function backendFlags(protocol: BatchProtocol, url: string): string[] {
  return ["--provider", protocol, "--model", MODELS[protocol], "--base-url", protocol === "openai" ? `${url}/v1` : url];
}

/** Every log.md entry's tokens and cost. */
export function ledger(vault: string): { inputTokens: number; outputTokens: number; costUsd: number; entries: number } {
  const log = readFileSync(join(vault, "wiki/log.md"), "utf8");
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  let entries = 0;
  for (const m of log.matchAll(/tokens: ([\d,]+) in, ([\d,]+) out/g)) {
    inputTokens += Number(m[1]?.replace(/,/g, ""));
    outputTokens += Number(m[2]?.replace(/,/g, ""));
    entries += 1;
  }
  for (const m of log.matchAll(/cost: \$([\d.]+)/g)) costUsd += Number(m[1]);
  return { inputTokens, outputTokens, costUsd, entries };
}

/** The id of the only batch recorded in the vault. */
export function batchIdIn(stdout: string): string {
  const id = /Batch (\d{8}-\d{6}-[0-9a-f]{8})/.exec(stdout)?.[1];
  if (!id) throw new Error(`No batch id in:\n${stdout}`);
  return id;
}
