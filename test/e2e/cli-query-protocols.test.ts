/**
 * `synapse query` (the built CLI, a real process) against the scripted servers of the three HTTP
 * protocols, so the real SDKs stream the answer: streaming to stdout, Ctrl-C mid-stream, citations
 * verified and unverified, the wiki language, excluded folders never in any request body, "not in
 * your wiki" and the size limit with no model call, and --save undone by `synapse undo`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
import { CLI, cliEnv, runCli } from "../helpers/run-cli";
import type { Protocol, ScriptedServer } from "../helpers/scripted-server";
import { makeVault, readVaultFile } from "../helpers/temp-vault";
import { API_KEY, MODELS, content, startServer } from "../providers/harness";

const KEYS = { ANTHROPIC_API_KEY: API_KEY, OPENAI_API_KEY: API_KEY };
const SECRET = "SECRET-7731";
const QUESTION = "Who wrote the first program for the Analytical Engine?";
const ANSWER = "Ada Lovelace wrote the first program for the engine [[Ada Lovelace]]; compare [[Charles Darwin]].";
const CHAT_PATHS: Record<Protocol, string> = { ollama: "/api/chat", openai: "/v1/chat/completions", anthropic: "/v1/messages" };

const page = (type: string, title: string, sources: string[], body: string) =>
  `---\ntype: ${type}\ntitle: ${title}\nsources:\n${sources.map((s) => `  - ${s}`).join("\n")}\nlang: en\ntags: []\n---\n${body}\n`;

function wiki(settings: Record<string, unknown> = {}, extra: Record<string, string> = {}): string {
  return makeVault({
    ...extra,
    "notes/Ada Lovelace.md": "# Ada Lovelace\n\nAda Lovelace wrote the first program for the Analytical Engine.\n",
    "private/Diary.md": `# Diary\n\nThe first program for the Analytical Engine keeps me awake. ${SECRET}\n`,
    "wiki/entities/Ada Lovelace.md": page("entity", "Ada Lovelace", ["notes/Ada Lovelace.md"], "Ada Lovelace wrote the first program for the [[Analytical Engine]]."),
    // Drawn from the excluded diary: it must never be quoted, though it matches the question.
    "wiki/concepts/Sleepless program.md": page("concept", "Sleepless program", ["private/Diary.md"], `The first program for the Analytical Engine keeps someone awake. ${SECRET}`),
    "wiki/index.md": "# Index\n",
    "wiki/log.md": "# Log\n",
    ".obsidian/plugins/synapse/data.json": JSON.stringify({ version: 1, excludedFolders: ["private"], wikiLanguage: "de", ...settings }),
  });
}

interface QueryJson {
  answer: string;
  citations: { page: string; path: string | null; verified: boolean; problem: string | null; reason: string | null }[];
  saved: string | null;
  usage: { inputTokens: number; outputTokens: number };
  error: { kind: string; message: string } | null;
}

describe.each(["ollama", "anthropic", "openai"] as const)("synapse query --provider %s (built CLI)", (protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer(protocol, [content(ANSWER)]);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.setScript([content(ANSWER)]);
  });

  const baseUrl = () => (protocol === "openai" ? `${server.url}/v1` : server.url);
  const args = (vault: string, question: string, extra: string[] = []) => [
    "query",
    question,
    "--vault",
    vault,
    "--provider",
    protocol,
    "--model",
    MODELS[protocol],
    "--base-url",
    baseUrl(),
    ...extra,
  ];
  const chatCalls = () => server.requests.filter((r) => r.path.startsWith(CHAT_PATHS[protocol]));

  it("answers in the wiki's language with verified and unverified citations, never sending an excluded folder, and --save is undone by synapse undo", async () => {
    const vault = wiki();
    const run = await runCli(args(vault, QUESTION, ["--save", "--json"]), { env: KEYS });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as QueryJson;
    expect(report.error).toBeNull();
    expect(report.answer).toBe(ANSWER);
    expect(report.citations).toEqual([
      { page: "Ada Lovelace", path: "notes/Ada Lovelace.md", verified: true, problem: null, reason: null },
      { page: "Charles Darwin", path: null, verified: false, problem: "not-in-context", reason: "This page was not among the passages sent to the model." },
    ]);
    expect(report.usage.inputTokens).toBeGreaterThan(0);
    expect(chatCalls()).toHaveLength(1);
    const sent = JSON.stringify(chatCalls()[0]?.body);
    expect(sent).toContain("wiki/entities/Ada Lovelace.md");
    expect(sent).toContain("Answer in German");
    for (const request of server.requests) {
      expect(JSON.stringify(request.body)).not.toContain(SECRET);
      expect(JSON.stringify(request.body)).not.toContain("keeps me awake");
    }
    expect(report.saved).toBe("wiki/syntheses/Who wrote the first program for the Analytical Engine.md");
    expect(readVaultFile(vault, report.saved ?? "")).toContain("  - notes/Ada Lovelace.md");
    expect(readVaultFile(vault, "wiki/log.md")).toContain(`] query | ${QUESTION}`);
    const undo = await runCli(["undo", "--vault", vault]);
    expect(undo.code, undo.stderr).toBe(0);
    expect(existsSync(join(vault, report.saved ?? ""))).toBe(false);
  });

  it("streams the answer to stdout as it arrives; Ctrl-C mid-stream stops it with exit 130", async () => {
    server.setScript([{ kind: "stall", text: "Ada Lovelace wrote the first program" }]);
    const vault = wiki();
    const child = spawn(process.execPath, [CLI, ...args(vault, QUESTION)], { env: cliEnv(KEYS) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    // The text is on stdout while the server still holds the stream open: it was streamed.
    await eventually(() => expect(stdout).toContain("Ada Lovelace wrote the first program"));
    expect(chatCalls()[0]?.aborted).toBe(false);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/cancel/i);
    await eventually(() => expect(chatCalls()[0]?.aborted).toBe(true));
  });

  it("says 'not in your wiki', and refuses an oversized question, without calling the model", async () => {
    const vault = wiki();
    const none = await runCli(args(vault, "What is the boiling point of nitrogen?", ["--json"]), { env: KEYS });
    expect(none.code, none.stderr).toBe(0);
    expect((JSON.parse(none.stdout) as QueryJson).answer).toMatch(/^Not in your wiki/);
    const long = await runCli(args(vault, `Analytical Engine ${"why ".repeat(1200)}?`, ["--json"]), { env: KEYS });
    expect(long.code).toBe(2);
    expect((JSON.parse(long.stdout) as QueryJson).error?.message).toMatch(/over the 4,000-character limit/);
    expect(chatCalls()).toEqual([]);
  });

  it.runIf(protocol === "anthropic")("refuses a remote backend in local-only mode before anything is sent", async () => {
    const run = await runCli(args(wiki({ localOnly: true }), QUESTION, ["--json"]), { env: KEYS });
    expect(run.code).toBe(4);
    const report = JSON.parse(run.stdout) as QueryJson;
    expect(report.error?.kind).toBe("perimeter");
    expect(report.error?.message).toMatch(/Local-only mode is on/);
    expect(server.requests).toEqual([]);
  });

  it("keeps to the vault's token budget: passages that do not fit stay out, and a question it cannot hold is refused unsent", async () => {
    // A second relevant page far too long for a 1,000-token budget once the question is counted.
    const long = `The Analytical Engine's first program was written out in full. LONGPAGE ${"gear ".repeat(400)}`;
    const limited = wiki({ tokenBudget: 1000 }, { "wiki/concepts/Engine program.md": page("concept", "Engine program", ["notes/Ada Lovelace.md"], long) });
    const run = await runCli(args(limited, QUESTION), { env: KEYS });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/1 relevant passage left out/);
    expect(chatCalls()).toHaveLength(1);
    const sent = JSON.stringify(chatCalls()[0]?.body);
    expect(sent).toContain("wiki/entities/Ada Lovelace.md");
    expect(sent).not.toContain("LONGPAGE");

    server.reset();
    const refused = await runCli(args(wiki({ tokenBudget: 300 }), QUESTION, ["--json"]), { env: KEYS });
    expect(refused.code).toBe(4);
    const report = JSON.parse(refused.stdout) as QueryJson;
    expect(report.error?.kind).toBe("config");
    expect(report.error?.message).toMatch(/more than the token budget of 300 \(setting "Token budget"\), so nothing was sent/);
    expect(server.requests).toEqual([]);
  });
});
