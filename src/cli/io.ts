/** What a CLI command may touch of its process: injected so tests can run commands in-process. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
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
} as const;

export class UsageError extends Error {
  override readonly name = "UsageError";
}
