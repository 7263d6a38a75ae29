/**
 * The headless CLI: `synapse ingest | models | bridge`. Errors are one sentence unless --verbose.
 * Only this file and the command table load at start; each command's module (and through it the
 * SDKs) loads when that command runs.
 */
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { toSynapseError } from "../core/errors";
import { asksForHelp, COMMANDS, synopsis, type CommandContext } from "./commands";
import { EXIT, UsageError, type CliIO } from "./io";
import { phaseTimer } from "./timing";

const HELP = `Synapse keeps an LLM-maintained wiki inside an Obsidian vault.

${synopsis()}
       synapse --version

Run synapse <command> --help for a command's options.

Exit codes: 0 done, 1 could not write (nothing changed), 2 usage or unusable note,
3 not converged (nothing written), 4 provider failure (nothing written), 5 undo refused
(files edited since), 130 interrupted.`;

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}

export type MainOptions = CommandContext;

/** Exits once everything written to stdout and stderr has been handed on (a pipe may take it later). */
async function exitAfterOutput(code: number): Promise<void> {
  const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

export async function main(argv: readonly string[], io: CliIO, options: MainOptions = {}): Promise<number> {
  const [command, ...rest] = argv;
  const verbose = rest.includes("--verbose");
  const entry = COMMANDS.find((c) => c.name === command);
  try {
    if (entry) {
      if (asksForHelp(rest)) {
        io.stdout(`${entry.usage.trimEnd()}\n`);
        return EXIT.ok;
      }
      return await entry.run(rest, io, { ...options, version: options.version ?? version() });
    }
    switch (command) {
      case "--version":
      case "-v":
        io.stdout(`${version()}\n`);
        return EXIT.ok;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout(`${HELP}\n`);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n${entry ? entry.usage.trimEnd() : "Run synapse --help for usage."}\n`);
      return EXIT.usage;
    }
    // toSynapseError turns a file system's refusal (ENOSPC, EACCES…) into one sentence.
    io.stderr(`Error: ${toSynapseError(error).message}\n`);
    if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return EXIT.failure;
  }
}

/**
 * Whether this module is the program Node was started with (tests import it instead). Compared by
 * real path: an installed `synapse` (npm install -g, npm link) is a symbolic link to dist/cli.mjs, so
 * the process starts with the link's path, and a plain comparison of names silently ran nothing.
 */
function isEntryPoint(): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const controller = new AbortController();
  let interrupts = 0;
  let writing = false;
  const onSignal = () => {
    interrupts += 1;
    // A second Ctrl-C forces the exit, except while the vault is being written: the write (or its
    // roll-back) takes moments, and cutting it would leave a half-written wiki.
    if (interrupts > 1 && !writing) process.exit(EXIT.cancelled);
    if (writing) process.stderr.write("Finishing the write so the vault stays whole…\n");
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // stdout that cannot be written (its reader closed the pipe, the disk it goes to is full) ends
  // the command with one line, or none for a closed pipe, instead of an uncaught error's stack.
  let outputFailed: number | null = null;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (outputFailed !== null) return;
    outputFailed = error.code === "EPIPE" ? EXIT.closedPipe : EXIT.failure;
    if (error.code !== "EPIPE") process.stderr.write(`Error: the output could not be written. ${toSynapseError(error).message}\n`);
    // A vault write in progress finishes first (the command stops at its next step), then the process ends.
    if (writing) controller.abort();
    else process.exit(outputFailed);
  });
  // Nowhere is left to report a failing stderr to.
  process.stderr.on("error", () => undefined);
  const timer = phaseTimer(process.env);
  const io: CliIO = {
    stdout: (text) => {
      if (outputFailed === null) process.stdout.write(text);
    },
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    ...(timer ? { mark: (phase: string) => timer.mark(phase) } : {}),
  };
  const exitWhenDone = COMMANDS.find((c) => c.name === process.argv[2])?.exitWhenDone === true;
  void main(process.argv.slice(2), io, { signal: controller.signal, writing: (inProgress) => (writing = inProgress) }).then(async (code) => {
    process.exitCode = outputFailed ?? code;
    if (timer) process.stderr.write(timer.line());
    if (exitWhenDone || outputFailed !== null) await exitAfterOutput(outputFailed ?? code);
  });
}
