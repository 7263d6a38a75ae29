/**
 * Different subjects stay on different pages, through the built CLI and the Offline provider:
 * ingesting a note about World War I, then one about World War II, gives two pages with their own
 * names, and neither becomes an alias of the other.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

const WWI = "notes/World War I.md";
const WWII = "notes/World War II.md";

describe("synapse ingest keeps World War I and World War II apart (offline provider)", () => {
  it("writes two pages with their own names", async () => {
    const vault = makeVault({
      [WWI]: "# World War I\n\nWorld War I was a global war fought from 1914 to 1918 between the Allies and the Central Powers. Millions died in the trenches of the Western Front.\n",
      [WWII]: "# World War II\n\nWorld War II was a global war fought from 1939 to 1945 between the Allies and the Axis powers. Millions died across Europe and the Pacific.\n",
    });
    expect((await runCli(["ingest", WWI, "--vault", vault])).code).toBe(0);
    const second = await runCli(["ingest", WWII, "--vault", vault, "--json"]);
    expect(second.code).toBe(0);
    const report = JSON.parse(second.stdout) as { pages: { path: string; title: string; action: string }[] };
    expect(report.pages).toEqual([expect.objectContaining({ title: "World War II", action: "created" })]);
    const first = readFileSync(join(vault, "wiki/sources/World War I (source).md"), "utf8");
    expect(first).not.toContain("World War II");
    expect(readFileSync(join(vault, report.pages[0]?.path ?? ""), "utf8")).toContain("title: World War II");
  });
});
