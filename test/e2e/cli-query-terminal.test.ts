/**
 * `synapse query` in a terminal: an answer carrying escape sequences (random bytes from a broken
 * model, as the llama.cpp runtime suite showed, or an instruction planted in a note) reaches
 * stdout without its control characters, so it cannot clear the screen, retitle the window or
 * rewrite what was printed. Found by test/llama/cli.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli";
import type { ScriptedServer } from "../helpers/scripted-server";
import { makeVault } from "../helpers/temp-vault";
import { MODELS, content, startServer } from "../providers/harness";

const ANSWER = "Ada Lovelace\u001b]0;pwned\u0007 wrote the first program\u001b[2J\u001b[H\r for the engine\u0000\u009b [[Ada Lovelace]].\n\tIn 1843.";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer("ollama", [content(ANSWER)]);
});
afterAll(() => server.close());

it("prints the answer's text without its control characters, line breaks and tabs kept", async () => {
  const vault = makeVault({
    "wiki/entities/Ada Lovelace.md": "---\ntype: entity\ntitle: Ada Lovelace\nsources: []\nlang: en\ntags: []\n---\nAda Lovelace wrote the first program for the Analytical Engine.\n",
    "wiki/index.md": "# Index\n",
  });
  const run = await runCli(["query", "Who wrote the first program?", "--vault", vault, "--provider", "ollama", "--model", MODELS.ollama, "--base-url", server.url]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe("Ada Lovelace]0;pwned wrote the first program[2J[H for the engine [[Ada Lovelace]].\n\tIn 1843.\n");
});
