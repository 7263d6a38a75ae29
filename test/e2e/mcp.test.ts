import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli } from "../helpers/run-cli";
import { makeVault, readVaultFile, snapshot } from "../helpers/temp-vault";

const ADA = "notes/Ada Lovelace.md";
const ADA_TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it.\n";
const BABBAGE = "notes/Charles Babbage.md";
const BABBAGE_TEXT = "# Charles Babbage\n\nCharles Babbage designed the Difference Engine and the Analytical Engine in London.\n";
const SECRET = "private/Diary.md";

async function wiki(): Promise<string> {
  const vault = makeVault({
    [ADA]: ADA_TEXT,
    [BABBAGE]: BABBAGE_TEXT,
    [SECRET]: "# Diary\n\nThe Analytical Engine keeps me awake.\n",
    ".obsidian/plugins/synapse/data.json": JSON.stringify({ excludedFolders: ["private"] }),
  });
  expect((await runCli(["ingest", ADA, "--vault", vault, "--provider", "offline", "--json"])).code).toBe(0);
  return vault;
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(vault: string, extra: readonly string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--vault", vault, "--provider", "offline", ...extra], env: cliEnv() as Record<string, string>, stderr: "pipe" });
  const client = new Client({ name: "synapse-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function json(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent ?? {};
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** The vault's files outside Synapse's state folder. */
function userFiles(vault: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(vault)).filter(([path]) => !path.startsWith(".obsidian/")));
}

describe("synapse mcp (the built CLI driven by the SDK's own client over stdio)", () => {
  it("lists its tools, searches and reads the wiki, and never hands out an excluded note", async () => {
    const vault = await wiki();
    const client = await connect(vault);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["ask", "lint", "list_pages", "propose", "read_page", "search"]);

    const found = json(await call(client, "search", { query: "Analytical Engine", scope: "all", limit: 20 })) as { results: { path: string; snippet: string }[] };
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results.some((r) => r.path.startsWith("wiki/"))).toBe(true);
    expect(found.results.some((r) => r.path.startsWith("private/"))).toBe(false);

    const listed = json(await call(client, "list_pages", {})) as { total: number; pages: { path: string; title: string; type: string }[] };
    expect(listed.pages.length).toBe(listed.total);
    expect(listed.pages.map((p) => p.title)).toContain("Ada Lovelace");
    const entities = json(await call(client, "list_pages", { type: "entity" })) as { pages: { type: string }[] };
    expect(entities.pages.length).toBeGreaterThan(0);
    expect(entities.pages.every((p) => p.type === "entity")).toBe(true);

    const page = listed.pages.find((p) => p.title === "Ada Lovelace");
    const read = json(await call(client, "read_page", { path: page?.path ?? "" })) as { markdown: string; truncated: boolean };
    // An MCP client is a model: the page comes without Synapse's bookkeeping, frontmatter and words kept.
    const onDisk = readVaultFile(vault, page?.path ?? "");
    expect(onDisk).toMatch(/^%% synapse:source /m);
    expect(read.markdown).not.toMatch(/%%\s*\/?synapse|\*From \[\[/);
    expect(read.markdown.startsWith(onDisk.slice(0, onDisk.indexOf("\n---\n") + 5))).toBe(true);
    expect(read.markdown).toContain("Ada Lovelace wrote the first program");
    expect(read.truncated).toBe(false);

    expect(errorText(await call(client, "read_page", { path: SECRET }))).toMatch(/^perimeter: .*excluded folder/);
    expect(errorText(await call(client, "read_page", { path: "../outside.md" }))).toMatch(/^input: .*outside the vault/);
    expect(errorText(await call(client, "read_page", { path: ".obsidian/plugins/synapse/data.json" }))).toMatch(/^input: .*hidden folder/);

    const resources = await client.listResources();
    const uri = resources.resources.find((r) => r.name === "Ada Lovelace")?.uri ?? "";
    expect(uri).toMatch(/^synapse:\/\/page\/wiki\//);
    const resource = await client.readResource({ uri });
    expect(resource.contents[0]).toMatchObject({ mimeType: "text/markdown", text: read.markdown });
    await expect(client.readResource({ uri: "synapse://page/private/Diary.md" })).rejects.toThrow(/excluded folder/);
  });

  it("answers with verified citations, and says when the wiki holds nothing", async () => {
    const vault = await wiki();
    const client = await connect(vault);
    const answered = json(await call(client, "ask", { question: "Who designed the Analytical Engine?", scope: "wiki" })) as { answer: string; grounding: string; citations: { verified: boolean }[] };
    expect(answered.grounding).toBe("vault");
    expect(answered.answer).toContain("Analytical Engine");
    expect(answered.citations.length).toBeGreaterThan(0);
    expect(answered.citations.every((c) => c.verified)).toBe(true);
    const none = json(await call(client, "ask", { question: "What is the boiling point of tungsten?" })) as { grounding: string; citations: unknown[] };
    expect(none.grounding).toBe("none");
    expect(none.citations).toEqual([]);
  });

  it("gives a clear error for bad arguments", async () => {
    const vault = await wiki();
    const client = await connect(vault);
    expect(errorText(await call(client, "search", { query: "Ada", limit: 0 }))).toMatch(/limit/);
    expect(errorText(await call(client, "search", { query: "" }))).toMatch(/query|words/i);
    expect(errorText(await call(client, "read_page", {}))).toMatch(/path/);
    expect(errorText(await call(client, "propose", { action: "ingest" }))).toMatch(/^input: ingest takes the note's path/);
    expect(errorText(await call(client, "propose", { action: "delete_everything", note: ADA }))).toMatch(/action/);
    expect(errorText(await call(client, "propose", { action: "ingest", note: SECRET }))).toMatch(/^perimeter: /);
  });

  it("propose stages an ingest and writes nothing; synapse review accepts it as one undoable run", async () => {
    const vault = await wiki();
    const client = await connect(vault);
    const before = userFiles(vault);
    const staged = json(await call(client, "propose", { action: "ingest", note: BABBAGE })) as { status: string; id: string; changes: { path: string; action: string }[] };
    expect(staged.status).toBe("staged");
    expect(staged.changes.length).toBeGreaterThan(0);
    expect(userFiles(vault)).toEqual(before);

    const listed = await runCli(["review", "--vault", vault, "--json"]);
    expect(listed.code).toBe(0);
    const proposals = (JSON.parse(listed.stdout) as { proposals: { id: string; kind: string; proposedBy: string | null }[] }).proposals;
    expect(proposals).toEqual([expect.objectContaining({ id: staged.id, kind: "ingest", proposedBy: "synapse-test 1.0.0" })]);
    const shown = await runCli(["review", "--vault", vault, "show", staged.id]);
    expect(shown.stdout).toContain(`b/${staged.changes[0]?.path ?? ""}`);
    expect(shown.stdout).toMatch(/^\+.*Difference Engine/m);

    const accepted = await runCli(["review", "--vault", vault, "accept", staged.id, "--json"]);
    expect(accepted.code, accepted.stderr).toBe(0);
    const files = (JSON.parse(accepted.stdout) as { status: string; files: { path: string; action: string }[] }).files;
    expect(files.map((f) => f.path).sort()).toEqual(staged.changes.filter((c) => !c.path.endsWith("index.md") && !c.path.endsWith("log.md")).map((c) => c.path).sort());
    for (const f of files) expect(existsSync(join(vault, f.path))).toBe(true);
    expect(readVaultFile(vault, "wiki/log.md")).toContain("ingest | Charles Babbage");
    expect(JSON.parse((await runCli(["review", "--vault", vault, "--json"])).stdout)).toEqual({ proposals: [] });

    const history = await runCli(["history", "--vault", vault, "--json"]);
    expect(history.stdout).toContain("Charles Babbage");
    expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
    // log.md only grows: it records the undo too.
    const withoutLog = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([path]) => path !== "wiki/log.md"));
    expect(withoutLog(userFiles(vault))).toEqual(withoutLog(before));
  });

  it("refuse drops a proposal and writes nothing; a saved answer is staged the same way", async () => {
    const vault = await wiki();
    const client = await connect(vault);
    const before = userFiles(vault);
    const staged = json(await call(client, "propose", { action: "save_answer", question: "Who designed the Analytical Engine?" })) as { status: string; id: string; changes: { path: string }[] };
    expect(staged.status).toBe("staged");
    expect(staged.changes.map((c) => c.path)).toEqual(["wiki/syntheses/Who designed the Analytical Engine.md"]);
    const refused = await runCli(["review", "--vault", vault, "refuse", staged.id]);
    expect(refused.code).toBe(0);
    expect(userFiles(vault)).toEqual(before);
    const again = await runCli(["review", "--vault", vault, "accept", staged.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("No proposal");
  });

  it("with --allow-writes, propose applies through the write path at once, journaled and undoable", async () => {
    const vault = await wiki();
    const client = await connect(vault, ["--allow-writes"]);
    const applied = json(await call(client, "propose", { action: "save_answer", question: "Who designed the Analytical Engine?" })) as { status: string; changes: { path: string; action: string }[] };
    expect(applied.status).toBe("applied");
    const path = "wiki/syntheses/Who designed the Analytical Engine.md";
    expect(applied.changes).toContainEqual({ path, action: "created" });
    expect(readVaultFile(vault, path)).toMatch(/^---\ntype: synthesis\n/);
    expect(readVaultFile(vault, "wiki/log.md")).toContain("] query | Who designed the Analytical Engine?");
    expect(JSON.parse((await runCli(["review", "--vault", vault, "--json"])).stdout)).toEqual({ proposals: [] });
    expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
    expect(existsSync(join(vault, path))).toBe(false);
  });

  it("in local-only mode hands out nothing unless told the agent is local", async () => {
    const vault = await wiki();
    const settings = join(vault, ".obsidian/plugins/synapse/data.json");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(settings, JSON.stringify({ excludedFolders: ["private"], localOnly: true }));
    const client = await connect(vault);
    expect(errorText(await call(client, "search", { query: "Analytical Engine" }))).toMatch(/^perimeter: Local-only mode is on/);
    const local = await connect(vault, ["--local-agent"]);
    expect(json(await call(local, "search", { query: "Analytical Engine" }))).toHaveProperty("results");
  });
});
