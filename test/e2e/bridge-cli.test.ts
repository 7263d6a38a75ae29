/**
 * The whole path as a user runs it: `synapse bridge` as its own process (the built CLI) with the
 * real Claude Agent SDK pointed at a scripted Messages API, then `synapse ingest --provider cli`
 * through it. The page the agent wrote ends up in the vault through Synapse's own write path; a
 * question through it streams its answer, is saved and undone, or is answered "not in your wiki"
 * without running the agent.
 */
import { spawn, type ChildProcess } from "node:child_process";
import process from "node:process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli";
import { EXISTING_PAGE_PATH, makeVault, NOTE_PATH, pageMarkdown, tempHome, type TestVault } from "../helpers/bridge-fixtures";
import { piecesTurn, startScriptedMessagesApi, textTurn, toolTurn, type ScriptedMessagesApi } from "../helpers/scripted-messages-api";

/** Where the agent writes its page in the staging copy. */
const AGENT_PAGE = "wiki/sources/Local-first software.md";
/** Where Synapse's write path files it: the clipped note has the same name, so the type is added. */
const PAGE = "wiki/sources/Local-first software (source).md";
const PERSON = "wiki/entities/Martin Kleppmann.md";

describe("synapse ingest and query --provider cli through synapse bridge (built CLI, real agent SDK)", () => {
  let vault: TestVault;
  let home: ReturnType<typeof tempHome>;
  let api: ScriptedMessagesApi;
  let bridge: ChildProcess;
  let bridgeStderr = "";
  let url = "";
  let token = "";

  beforeAll(async () => {
    vault = makeVault();
    home = tempHome();
    api = await startScriptedMessagesApi([
      toolTurn("Read", { file_path: NOTE_PATH }),
      toolTurn("Write", { file_path: AGENT_PAGE, content: pageMarkdown("Local-first software") }),
      textTurn("Wrote one source page."),
      // The second ingest (human output): an entity page.
      toolTurn("Read", { file_path: EXISTING_PAGE_PATH }),
      toolTurn("Write", {
        file_path: PERSON,
        content: pageMarkdown("Martin Kleppmann", { type: "entity", body: "Co-author of the essay on [[Local-first software]]." }),
      }),
      textTurn("Wrote an entity page."),
      // The question (read-only): a search, then the answer in two pieces.
      toolTurn("Grep", { pattern: "Kleppmann", path: "wiki" }),
      piecesTurn(["Martin Kleppmann co-wrote the essay ", "[[Martin Kleppmann]]."]),
      // The question asked without --json: the answer on stdout, the citations on stderr.
      piecesTurn(["Kleppmann co-wrote it ", "[[Martin Kleppmann]]."]),
    ]);
    bridge = spawn(process.execPath, [CLI, "bridge", "--vault", vault.root, "--port", "0", "--json"], {
      env: { PATH: process.env.PATH ?? "", HOME: home.path, ANTHROPIC_API_KEY: "sk-ant-test-key", ANTHROPIC_BASE_URL: api.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    bridge.stderr?.on("data", (c: Buffer) => (bridgeStderr += c.toString("utf8")));
    const first = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`the bridge printed nothing: ${bridgeStderr}`)), 20_000);
      bridge.stdout?.on("data", (c: Buffer) => {
        out += c.toString("utf8");
        if (out.includes("\n")) {
          clearTimeout(timer);
          resolve(out.slice(0, out.indexOf("\n")));
        }
      });
      bridge.on("exit", (code) => reject(new Error(`the bridge exited with ${String(code)}: ${bridgeStderr}`)));
    });
    ({ url, token } = JSON.parse(first) as { url: string; token: string });
  });

  afterAll(async () => {
    if (bridge.exitCode === null) {
      const exited = new Promise((resolve) => bridge.once("exit", resolve));
      bridge.kill("SIGTERM");
      await exited;
    }
    await api.close();
    vault.dispose();
    home.dispose();
  });

  it("ingests a note: the agent's page is validated and written into the vault", async () => {
    const run = await runCli(["ingest", NOTE_PATH, "--vault", vault.root, "--provider", "cli", "--bridge-url", url, "--json"], {
      env: { SYNAPSE_BRIDGE_TOKEN: token },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      converged: true,
      attempts: { analyze: 0, generate: 1 },
      provider: { name: "claude-agent", mode: "cli", isLocal: false },
      error: null,
      pages: [{ path: PAGE, type: "source", title: "Local-first software", action: "created" }],
    });
    expect((report.usage as { costUsd: number }).costUsd).toBeGreaterThan(0);
    const files = vault.snapshot();
    expect(files.get(PAGE)).toContain(`sources:\n  - ${NOTE_PATH}`);
    expect(files.get(PAGE)).toContain("Local-first software keeps the primary copy of data on the user's devices; see [[CRDT]].");
    expect(files.get("wiki/index.md")).toContain("Local-first software");
  });

  it("shows the agent's progress on the terminal", async () => {
    // The same note again, unchanged: --force, or it would be "already up to date" without any agent.
    const run = await runCli(["ingest", NOTE_PATH, "--vault", vault.root, "--provider", "cli", "--bridge-url", url, "--force"], {
      env: { SYNAPSE_BRIDGE_TOKEN: token },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Agent: Read ${EXISTING_PAGE_PATH}`);
    expect(run.stderr).toContain(`Agent wrote ${PERSON}`);
    expect(run.stderr).toContain("Agent finished: 1 page,");
    expect(run.stdout).toContain(`+ ${PERSON}`);
    expect(vault.snapshot().get(PERSON)).toContain("type: entity");
  });

  it("answers a question read-only, citations checked, and --save files it through the write path", async () => {
    const before = vault.snapshot();
    const run = await runCli(["query", "Who is Martin Kleppmann?", "--vault", vault.root, "--provider", "cli", "--bridge-url", url, "--scope", "wiki", "--save", "--json"], {
      env: { SYNAPSE_BRIDGE_TOKEN: token },
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { answer: string; citations: unknown[]; saved: string | null; provider: unknown; error: unknown };
    expect(report).toMatchObject({
      answer: "Martin Kleppmann co-wrote the essay [[Martin Kleppmann]].",
      citations: [{ page: "Martin Kleppmann", verified: true }],
      saved: "wiki/syntheses/Who is Martin Kleppmann.md",
      provider: { name: "claude-agent", mode: "cli", isLocal: false },
      error: null,
    });
    const offered = (api.agentRequests().at(-1)?.body as { tools: { name: string }[] }).tools.map((t) => t.name).filter((n) => n !== "DeferredToolPlaceholder");
    expect(offered.sort()).toEqual(["Glob", "Grep", "Read"]);
    // Only the saved answer, index.md and log.md changed: the agent itself wrote nothing.
    const after = vault.snapshot();
    const changed = [...after.keys()].filter((path) => after.get(path) !== before.get(path) && !path.startsWith(".obsidian/"));
    expect(changed.sort()).toEqual(["wiki/index.md", "wiki/log.md", "wiki/syntheses/Who is Martin Kleppmann.md"]);
    // `synapse undo` takes the saved answer back.
    const undo = await runCli(["undo", "--vault", vault.root]);
    expect(undo.code, undo.stderr).toBe(0);
    expect(vault.snapshot().has("wiki/syntheses/Who is Martin Kleppmann.md")).toBe(false);
  });

  it("answers 'not in your wiki' without running the agent when nothing in the wiki matches", async () => {
    const before = api.agentRequests().length;
    const run = await runCli(["query", "What is the boiling point of nitrogen?", "--vault", vault.root, "--provider", "cli", "--bridge-url", url, "--json"], {
      env: { SYNAPSE_BRIDGE_TOKEN: token },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: expect.stringMatching(/^Not in your wiki/) as unknown, citations: [], error: null });
    expect(api.agentRequests().length).toBe(before);
  });

  it("writes the agent's answer to stdout as it comes and its checked citations to stderr", async () => {
    const run = await runCli(["query", "Who is Martin Kleppmann?", "--vault", vault.root, "--provider", "cli", "--bridge-url", url, "--scope", "wiki"], {
      env: { SYNAPSE_BRIDGE_TOKEN: token },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Kleppmann co-wrote it [[Martin Kleppmann]].\n");
    expect(run.stderr).toContain(`✓ Martin Kleppmann (${PERSON})`);
  });

  it("refuses a wrong token before any agent runs", async () => {
    const before = api.agentRequests().length;
    const run = await runCli(["ingest", NOTE_PATH, "--vault", vault.root, "--provider", "cli", "--bridge-url", url, "--json", "--force"], {
      env: { SYNAPSE_BRIDGE_TOKEN: "not-the-token-0123456789" },
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("refused the token");
    expect(api.agentRequests().length).toBe(before);
  });

  it("logs runs without secrets and stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => bridge.once("exit", resolve));
    bridge.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(bridgeStderr).toContain("POST /ingest 401");
    expect(bridgeStderr).toMatch(/run \S+ success: 1 pages, 0 denied/);
    expect(bridgeStderr).not.toContain(token);
    expect(bridgeStderr).not.toContain("sk-ant-test-key");
  });
});
