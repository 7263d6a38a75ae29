import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault, snapshot } from "../helpers/temp-vault";

describe("synapse ingest with a wiki folder some platform cannot hold", () => {
  it("says so, and writes into the default wiki folder instead of the invalid one", async () => {
    const vault = makeVault({ "notes/Ada.md": "# Ada\n\nAda Lovelace wrote the first program for the Analytical Engine.\n" });
    mkdirSync(join(vault, ".obsidian/plugins/synapse"), { recursive: true });
    writeFileSync(join(vault, ".obsidian/plugins/synapse/data.json"), JSON.stringify({ version: 1, wikiFolder: "Wiki." }));
    const run = await runCli(["ingest", "notes/Ada.md", "--vault", vault, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Warning: .*The wiki folder "Wiki\." cannot be used on every device: "Wiki\." begins with a space or ends with a dot or space/);
    const files = Object.keys(snapshot(vault));
    expect(files).toContain("wiki/index.md");
    expect(files.some((f) => f.startsWith("Wiki./"))).toBe(false);
  });
});
