/** A note whose name holds a backslash (legal on Linux and macOS, where this runs) is ingested and cited as itself. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

const NOTE = "notes/back\\slash.md";

it("ingests notes/back\\slash.md and cites it under its own name", async () => {
  const vault = makeVault({ [NOTE]: "# Back slash\n\nAda Lovelace wrote the first program for the Analytical Engine of Charles Babbage.\n" });
  const run = await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline", "--json"]);
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout) as { converged: boolean; pages: { path: string; type: string }[] };
  expect(report.converged).toBe(true);
  const source = report.pages.find((p) => p.type === "source");
  expect(source).toBeDefined();
  expect(readFileSync(join(vault, source?.path ?? ""), "utf8")).toContain("  - notes/back\\slash.md\n");
  // And the note is known as ingested: a second run finds it up to date.
  const again = await runCli(["ingest", NOTE, "--vault", vault, "--provider", "offline", "--json"]);
  expect(JSON.parse(again.stdout)).toMatchObject({ upToDate: true });
});
