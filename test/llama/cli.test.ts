/**
 * The built CLI end to end against the real llama.cpp runtime (through the server in
 * llama-server.ts): `synapse ingest`, `synapse query` and `synapse lint --model-checks` on a small
 * vault. Random weights write valid JSON with nonsense in it, so each run must end with a clear,
 * honest result — a stop reason or a validated result — never a crash, a hang, or garbage on disk.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";
import { MODEL_NAME, startLlamaServer, type LlamaServer } from "./llama-server";
import { loadRuntime, skipNotice } from "./runtime";

const runtime = await loadRuntime();
const notice = skipNotice(runtime);
if (notice) console.log(notice);

const page = (type: string, title: string, sources: string[], body: string) =>
  `---\ntype: ${type}\ntitle: ${title}\nsources:\n${sources.map((s) => `  - ${s}`).join("\n")}\nlang: en\ntags: []\n---\n${body}\n`;

function vault(): string {
  return makeVault({
    "notes/Ada Lovelace.md": "# Ada Lovelace\n\nAda Lovelace wrote the first program for the Analytical Engine in 1843. She worked with Charles Babbage.\n",
    "wiki/entities/Ada Lovelace.md": page("entity", "Ada Lovelace", ["notes/Ada Lovelace.md"], "Ada Lovelace wrote the first program for the [[Analytical Engine]] in 1843."),
    "wiki/entities/Augusta Ada King.md": page("entity", "Augusta Ada King", ["notes/Ada Lovelace.md"], "Augusta Ada King wrote the first program for the [[Analytical Engine]] in 1842."),
    "wiki/concepts/Analytical Engine.md": page("concept", "Analytical Engine", ["notes/Ada Lovelace.md"], "The Analytical Engine was a mechanical computer designed by Charles Babbage."),
    // In step with the pages, as Synapse keeps it: a run that writes nothing leaves it as it is.
    "wiki/index.md": "# Index\n\n## Entities\n\n- [[wiki/entities/Ada Lovelace|Ada Lovelace]]\n- [[wiki/entities/Augusta Ada King|Augusta Ada King]]\n\n## Concepts\n\n- [[wiki/concepts/Analytical Engine|Analytical Engine]]\n",
    "wiki/log.md": "# Log\n",
    ".obsidian/plugins/synapse/data.json": JSON.stringify({ version: 1, requestTimeoutSeconds: 120, firstTokenTimeoutSeconds: 300, profiles: { ollama: { maxTokens: 400 }, openai: { maxTokens: 400 } } }),
  });
}

/** Every file of the vault with its text, to prove a failed run left nothing behind. */
function notesAndWiki(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(root, path)] = readFileSync(path, "utf8");
    }
  };
  walk(join(root, "wiki"));
  walk(join(root, "notes"));
  return out;
}

interface IngestJson {
  converged: boolean;
  stopReason: string | null;
  issues: unknown[];
  pages: unknown[];
  usage: { inputTokens: number; outputTokens: number };
  error: { kind: string; message: string } | null;
}
interface QueryJson {
  answer: string;
  citations: { verified: boolean }[];
  warning: string | null;
  usage: { inputTokens: number; outputTokens: number };
  error: { kind: string; message: string } | null;
}
interface LintJson {
  modelChecks: { toCheck: number; checked: number; unreadable: number; unverified: number; tooLong: number; unchecked: number; cached: number };
}

const backend = (server: LlamaServer, protocol: "ollama" | "openai") => ["--provider", protocol, "--model", MODEL_NAME, "--base-url", protocol === "openai" ? `${server.url}/v1` : server.url];
const KEYS = { OPENAI_API_KEY: "sk-local" };
const CLI_TIMEOUT_MS = 540_000;

describe.skipIf(!runtime.ok)("the built CLI on the real llama.cpp runtime", () => {
  let server: LlamaServer;
  beforeAll(async () => {
    if (!runtime.ok) return;
    server = await startLlamaServer(runtime);
  });
  afterAll(() => server?.close());
  beforeEach(() => server.reset());

  it("synapse ingest ends with a clear stop reason and writes nothing when the model's JSON is nonsense", async () => {
    const dir = vault();
    const before = notesAndWiki(dir);
    const run = await runCli(["ingest", "notes/Ada Lovelace.md", "--vault", dir, ...backend(server, "ollama"), "--max-iter", "2", "--json"], { env: KEYS, timeoutMs: CLI_TIMEOUT_MS });
    // Exit 3 (not converged) or 4 (provider failure): the nonsense never becomes pages.
    expect([3, 4], run.stderr).toContain(run.code);
    const report = JSON.parse(run.stdout) as IngestJson;
    expect(report.converged).toBe(false);
    expect(report.pages).toEqual([]);
    expect(report.stopReason).toBeTruthy();
    if (run.code === 4) expect(report.error?.message).toMatch(/\w.*\.$/);
    else expect(report.issues.length).toBeGreaterThan(0);
    expect(report.usage.inputTokens).toBeGreaterThan(0);
    const calls = server.modelCalls();
    expect(calls.length).toBeGreaterThan(0);
    // Our tiny vocabulary takes more tokens than Synapse's estimate, so the window Synapse asks for
    // can be too small and Ollama cuts the prompt. A cut request is never sent again unchanged: the
    // next one is packed again by what the server counted (or goes in a larger window), and a cut
    // that ends the run ends it as a context failure.
    calls.forEach((call, i) => {
      if (!call.generation?.promptCut) return;
      const next = calls[i + 1];
      if (next) expect(JSON.stringify(next.body)).not.toBe(JSON.stringify(call.body));
      else expect(report.error?.kind).toBe("context");
    });
    for (const call of calls) {
      expect(call.grammarError).toBeUndefined();
      const predict = (call.body as { options?: { num_predict?: number } }).options?.num_predict;
      expect(call.generation!.outputTokens).toBeLessThanOrEqual(predict!);
    }
    expect(notesAndWiki(dir)).toEqual(before);
  });

  it("synapse query streams an answer, says it could verify no citation, and prints no control character", async () => {
    const dir = vault();
    const before = notesAndWiki(dir);
    const question = "Who wrote the first program for the Analytical Engine?";
    const json = await runCli(["query", question, "--vault", dir, ...backend(server, "openai"), "--json"], { env: KEYS, timeoutMs: CLI_TIMEOUT_MS });
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as QueryJson;
    expect(report.error).toBeNull();
    expect(report.citations.every((c) => !c.verified)).toBe(true);
    expect(report.warning).toMatch(/\w.*\.$/);
    expect(report.usage.outputTokens).toBeGreaterThan(0);
    const calls = server.modelCalls();
    expect((calls[0]!.body as { stream?: boolean }).stream).toBe(true);
    expect(calls[0]!.chunksSent).toBeGreaterThan(1);
    // The same answer in a terminal: random bytes (control characters among them) never reach it.
    const human = await runCli(["query", question, "--vault", dir, ...backend(server, "openai")], { env: KEYS, timeoutMs: CLI_TIMEOUT_MS });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.length).toBeGreaterThan(0);
    // eslint-disable-next-line no-control-regex -- control characters are what must not be printed
    expect(human.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(notesAndWiki(dir)).toEqual(before);
  });

  it("synapse lint --model-checks reads each verdict strictly and caches only readable ones", async () => {
    const dir = vault();
    const before = notesAndWiki(dir);
    const args = ["lint", "--vault", dir, "--model-checks", ...backend(server, "ollama"), "--json"];
    const first = await runCli(args, { env: KEYS, timeoutMs: CLI_TIMEOUT_MS });
    // Exit 1: findings (the structural ones); never a crash.
    expect([0, 1], first.stderr).toContain(first.code);
    const checks = (JSON.parse(first.stdout) as LintJson).modelChecks;
    expect(checks.toCheck).toBeGreaterThan(0);
    // Every pair asked ends in one bucket: a readable verdict (cached), unreadable, no quote on the
    // pages, too long for the window the server runs (skipped with why), or not reached.
    expect(checks.checked + checks.unreadable + checks.unverified + checks.tooLong + checks.unchecked).toBe(checks.toCheck);
    const calls = server.modelCalls();
    for (const call of calls) {
      const body = call.body as { messages: { role: string }[]; format?: unknown; options?: { num_predict?: number } };
      // Its own structured request: one system message, the verdict schema, a budget.
      expect(body.messages.filter((m) => m.role === "system")).toHaveLength(1);
      expect(body.format).toBeTypeOf("object");
      expect(call.generation!.outputTokens).toBeLessThanOrEqual(body.options!.num_predict!);
    }
    // A second run asks again only what was unreadable: readable verdicts (and only they) were cached.
    server.reset();
    const second = await runCli(args, { env: KEYS, timeoutMs: CLI_TIMEOUT_MS });
    expect([0, 1], second.stderr).toContain(second.code);
    const again = (JSON.parse(second.stdout) as LintJson).modelChecks;
    expect(again.cached).toBe(checks.checked);
    expect(again.toCheck).toBe(checks.toCheck - checks.checked);
    expect(notesAndWiki(dir)).toEqual(before);
  });
});
