import { parseArgs, type ParseArgsConfig } from "node:util";

/** What a CLI command may touch of its process: injected so tests can run commands in-process. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Notes the end of a phase of the command, when its time is being measured (src/cli/timing.ts). */
  readonly mark?: (phase: string) => void;
}

export const EXIT = {
  ok: 0,
  /** Could not write to the vault (changes rolled back), or an unexpected failure. */
  failure: 1,
  usage: 2,
  notConverged: 3,
  provider: 4,
  /** Undo refused: files were edited after the run being undone. */
  edited: 5,
  /** Interrupted with Ctrl-C. */
  cancelled: 130,
  /** The reader of stdout went away (`synapse search … | head -1`): 128 + SIGPIPE, as a shell reports a Unix tool it cut off. */
  closedPipe: 141,
} as const;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** node:util's `parseArgs`, with what it refuses (an unknown or malformed flag) turned into a usage error. */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The flags that pick an operation's backend for one run, shared by every command that calls a model. */
export const BACKEND_FLAG_OPTIONS = {
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
} as const;
