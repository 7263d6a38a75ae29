import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/io";
import { CLI, runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

/** A note under the size limit whose one line of unbalanced brackets once held the event loop for minutes. */
const BRACKETS = `# Brackets\n\n${"[".repeat(500 * 1024)}\n`;
const MIXED = `Some text [[a|b]] and ${"[[a|![x](%%`".repeat(40 * 1024)}\n`;

function adversarialVault(): string {
  return makeVault({
    "notes/Brackets.md": BRACKETS,
    "notes/Mixed.md": MIXED,
    "notes/Tea.md": "Tea is steeped, not brewed under pressure. See [[Brackets]].",
    "wiki/concepts/Tea.md": `---\ntype: concept\nsources: ["[[notes/Tea]]"]\n---\n${"[".repeat(500 * 1024)}\n`,
  });
}

interface Ending {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
}

/** Starts the CLI, sends SIGTERM once it has said anything, and resolves with how it ended. */
function runThenTerminate(args: readonly string[]): Promise<Ending> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
    let signalled = false;
    const terminate = () => {
      if (signalled) return;
      signalled = true;
      child.kill("SIGTERM");
    };
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      terminate();
    });
    child.stderr.on("data", terminate);
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout }));
  });
}

describe("a huge note of unbalanced brackets (built CLI)", () => {
  it("is indexed, linted and ingested to the end", async () => {
    const vault = adversarialVault();
    const index = await runCli(["index", "--vault", vault, "--json"], { timeoutMs: 120_000 });
    expect(index.stderr).not.toMatch(/Error/);
    expect(index.code).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ notes: 4 });

    const lint = await runCli(["lint", "--vault", vault, "--json"], { timeoutMs: 120_000 });
    expect([EXIT.ok, EXIT.failure]).toContain(lint.code); // findings make a non-zero exit; a crash has no report
    expect(() => JSON.parse(lint.stdout) as unknown).not.toThrow();

    const ingest = await runCli(["ingest", "notes/Brackets.md", "--vault", vault, "--provider", "offline", "--dry-run", "--json"], { timeoutMs: 120_000 });
    expect(ingest.stderr).not.toMatch(/Error/);
    expect(ingest.code).toBe(0);
  }, 300_000);

  it.each([["index"], ["lint"], ["ingest"]])("answers SIGTERM during %s", async (command) => {
    const vault = adversarialVault();
    const args = command === "ingest" ? ["ingest", "notes/Mixed.md", "--vault", vault, "--provider", "offline"] : [command, "--vault", vault];
    const ending = await runThenTerminate(args);
    // Stopped for the signal, or finished before it arrived; a signal that lands while the process
    // is already exiting ends it by the signal, after its report was written.
    if (ending.signal === "SIGTERM") expect(ending.stdout).not.toBe("");
    else expect([EXIT.ok, EXIT.failure, EXIT.cancelled, EXIT.notConverged]).toContain(ending.code);
  }, 300_000);
});
