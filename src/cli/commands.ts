/**
 * The CLI's commands. Each names its usage (from a module that imports nothing) and loads its own
 * module only when it runs, so `synapse --version`, `--help` and `<command> --help` start as fast
 * as Node does, and `synapse ingest` loads only what an ingest needs. A new command is one entry
 * here; `--help` / `-h` anywhere in its arguments then prints its usage and exits 0.
 */
import { BRIDGE_USAGE } from "../bridge/usage";
import type { CliIO } from "./io";
import { MCP_USAGE } from "./mcp/usage";
import { BATCH_USAGE, HISTORY_USAGE, INDEX_USAGE, INGEST_USAGE, LINT_USAGE, MODELS_USAGE, QUERY_USAGE, RETRACT_USAGE, REVIEW_USAGE, SEARCH_USAGE, UNDO_USAGE } from "./usage";

export interface CommandContext {
  readonly signal?: AbortSignal;
  /** Told when writing to the vault starts and ends, so a second Ctrl-C does not cut it in half. */
  readonly writing?: (inProgress: boolean) => void;
  /** The package's version, for a command that tells it to a peer (the MCP server). */
  readonly version?: string;
}

export interface CliCommand {
  readonly name: string;
  /** The full usage: `synapse <name> --help` prints it, a usage error repeats it. */
  readonly usage: string;
  run(argv: readonly string[], io: CliIO, context: CommandContext): Promise<number>;
  /**
   * Nothing of the command goes on once `run` has returned (its writes are awaited), so the process
   * exits then, instead of first tearing down the index it loaded: at 50,000 notes, hundreds of
   * megabytes of heap, which took 0.5–1 s after the answer was printed.
   */
  readonly exitWhenDone?: boolean;
}

export const COMMANDS: readonly CliCommand[] = [
  {
    name: "ingest",
    usage: INGEST_USAGE,
    run: async (argv, io, context) => (await import("./ingest-command")).runIngestCommand(argv, io, context),
  },
  {
    name: "models",
    usage: MODELS_USAGE,
    run: async (argv, io) => (await import("./models-command")).runModelsCommand(argv, io),
  },
  {
    name: "undo",
    usage: UNDO_USAGE,
    run: async (argv, io) => (await import("./undo-command")).runUndoCommand(argv, io),
  },
  {
    name: "history",
    usage: HISTORY_USAGE,
    run: async (argv, io) => (await import("./history-command")).runHistoryCommand(argv, io),
  },
  {
    name: "search",
    usage: SEARCH_USAGE,
    exitWhenDone: true,
    run: async (argv, io, context) => (await import("./search-command")).runSearchCommand(argv, io, context.signal ? { signal: context.signal } : {}),
  },
  {
    name: "index",
    usage: INDEX_USAGE,
    exitWhenDone: true,
    run: async (argv, io, context) => (await import("./index-command")).runIndexCommand(argv, io, context.signal ? { signal: context.signal } : {}),
  },
  {
    name: "query",
    usage: QUERY_USAGE,
    run: async (argv, io, context) => (await import("./query-command")).runQueryCommand(argv, io, context.signal ? { signal: context.signal } : {}),
  },
  {
    name: "lint",
    usage: LINT_USAGE,
    run: async (argv, io) => (await import("./lint-command")).runLintCommand(argv, io),
  },
  {
    name: "retract",
    usage: RETRACT_USAGE,
    run: async (argv, io) => (await import("./retract-command")).runRetractCommand(argv, io),
  },
  {
    name: "review",
    usage: REVIEW_USAGE,
    run: async (argv, io) => (await import("./review-command")).runReviewCommand(argv, io),
  },
  {
    name: "batch",
    usage: BATCH_USAGE,
    run: async (argv, io, context) =>
      (await import("./batch-command")).runBatchCommand(argv, io, { ...(context.signal ? { signal: context.signal } : {}), ...(context.writing ? { writing: context.writing } : {}) }),
  },
  {
    name: "mcp",
    usage: MCP_USAGE,
    run: async (argv, io, context) => (await import("./mcp/command")).runMcpCommand(argv, io, context),
  },
  {
    name: "bridge",
    usage: BRIDGE_USAGE,
    run: async (argv, io, context) => (await import("../bridge/command")).runBridgeCommand([...argv], context.signal ? { ...io, signal: context.signal } : io),
  },
];

/** `--help` or `-h` among the options (not after `--`, where everything is an argument). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

/** The first line of each usage, for `synapse --help`. */
export function synopsis(): string {
  return COMMANDS.map((c, i) => {
    const lines = c.usage.split("\n\n")[0] ?? c.usage;
    return i === 0 ? lines : lines.replace(/^Usage: /, "       ");
  }).join("\n");
}
