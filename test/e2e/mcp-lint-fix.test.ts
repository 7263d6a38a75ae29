import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli } from "../helpers/run-cli";
import { makeVault, snapshot } from "../helpers/temp-vault";

const NOTE = "notes/Ada Lovelace.md";
const USERS = "wiki/concepts/My page.md";
const STUB = "wiki/concepts/Fog.md";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(vault: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--vault", vault, "--provider", "offline"], env: cliEnv() as Record<string, string>, stderr: "pipe" });
  const client = new Client({ name: "synapse-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function result(r: unknown): Record<string, unknown> {
  const call = r as CallToolResult;
  expect(call.isError, JSON.stringify(call.content)).toBeFalsy();
  return call.structuredContent ?? {};
}

/** The vault's files outside Synapse's state folder, log.md aside (an undo is written there too). */
function userFiles(vault: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(vault)).filter(([path]) => !path.startsWith(".obsidian/") && path !== "wiki/log.md"));
}

interface Listed {
  findings: { check: string; page: string; fixes: { id: string; kind: string }[] }[];
}

describe("synapse mcp: a lint fix proposed by an agent", () => {
  it("the lint tool lists fixes with ids; propose stages one; synapse review shows and accepts it as one undoable lint run", async () => {
    const vault = makeVault({ [NOTE]: "# Ada Lovelace\n\nAda Lovelace wrote the first program for the Analytical Engine.\n" });
    expect((await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline", "--json"])).code).toBe(0);
    mkdirSync(join(vault, "wiki/concepts"), { recursive: true });
    writeFileSync(join(vault, USERS), "---\ntype: concept\ntitle: My page\nsources: [notes/Ada Lovelace.md]\n---\n\nSee [[Ada Lovelace]] and [[Fog]].\n");
    const client = await connect(vault);

    const listed = result(await client.callTool({ name: "lint", arguments: {} })) as unknown as Listed;
    const fix = listed.findings.find((f) => f.check === "dangling-link" && f.page === USERS)?.fixes.find((x) => x.kind === "create-stub");
    expect(fix?.id).toMatch(/^create-stub-[0-9a-f]{16}$/);
    // `synapse lint --json` names the same fix by the same id.
    expect((await runCli(["lint", "--vault", vault, "--json"])).stdout).toContain(`"id":"${fix?.id ?? ""}"`);

    const before = userFiles(vault);
    const staged = result(await client.callTool({ name: "propose", arguments: { action: "lint_fix", fix: fix?.id } })) as { status: string; id: string; changes: { path: string }[] };
    expect(staged.status).toBe("staged");
    expect(staged.changes.map((c) => c.path)).toContain(STUB);
    expect(userFiles(vault)).toEqual(before);
    const refused = (await client.callTool({ name: "propose", arguments: { action: "lint_fix", fix: "create-stub-0123456789abcdef" } })) as CallToolResult;
    expect(refused.isError).toBe(true);

    const list = JSON.parse((await runCli(["review", "--vault", vault, "--json"])).stdout) as { proposals: { id: string; kind: string; title: string }[] };
    expect(list.proposals).toEqual([expect.objectContaining({ id: staged.id, kind: "lint-fix", title: expect.stringContaining("Fog") })]);
    expect((await runCli(["review", "--vault", vault, "show", staged.id])).stdout).toContain(`b/${STUB}`);
    const accepted = await runCli(["review", "--vault", vault, "accept", staged.id]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(existsSync(join(vault, STUB))).toBe(true);
    expect((await runCli(["history", "--vault", vault, "--json"])).stdout).toContain('"operation":"lint"');

    expect((await runCli(["undo", "--vault", vault])).code).toBe(0);
    expect(userFiles(vault)).toEqual(before);
  });
});
