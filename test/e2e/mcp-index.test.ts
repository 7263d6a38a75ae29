import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { STATE_FOLDER } from "../../src/vault/node-state-store";
import { eventually } from "../helpers/eventually";
import { CLI, cliEnv } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

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

/** The index's text shards in the vault's state folder. */
function textShards(vault: string): string[] {
  const folder = join(vault, STATE_FOLDER, "index");
  return existsSync(folder) ? readdirSync(folder).filter((f) => /^text-[0-9a-f]{2}\.bin$/.test(f)) : [];
}

describe("synapse mcp on a vault with no search index", () => {
  it("builds the index when it starts and writes it, before any tool asks for it", async () => {
    const vault = makeVault({ "notes/Bees.md": "# Bees\n\nBees make honey in the hive.\n", "notes/Hives.md": "# Hives\n\nA hive holds a colony of bees.\n" });
    expect(textShards(vault)).toEqual([]);
    const client = await connect(vault);
    await eventually(() => expect(textShards(vault).length).toBeGreaterThan(0));

    // A search answers from that index; closed, the server leaves it on disk for the next start.
    const found = (await client.callTool({ name: "search", arguments: { query: "honey", scope: "notes" } })) as CallToolResult;
    expect(found.isError, JSON.stringify(found.content)).toBeFalsy();
    expect((found.structuredContent as { results: { path: string }[] }).results.map((r) => r.path)).toContain("notes/Bees.md");
    await client.close();
    expect(textShards(vault).length).toBeGreaterThan(0);
  });
});
