/**
 * `synapse bridge --vault <dir> [--vault <dir>…] [--port N] [--json]`: starts the companion bridge
 * and keeps it running until SIGINT/SIGTERM (or `io.signal`). Prints the URL and the token; with
 * --json the first line is `{"url","token"}` for scripts and tests.
 */
import { statSync } from "node:fs";
import process from "node:process";
import { resolve } from "node:path";
import pkg from "../../package.json";
import { diagnose } from "./doctor";
import { generateToken, MIN_TOKEN_LENGTH } from "./security";
import { startBridgeServer } from "./server";
import { BRIDGE_USAGE } from "./usage";

export const DEFAULT_BRIDGE_PORT = 8765;

export interface BridgeIo {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  /** The bridge's environment (process.env): the token and the agent's credentials come from here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Stops the bridge (tests); without it the bridge stops on SIGINT/SIGTERM. */
  readonly signal?: AbortSignal;
}

interface BridgeArgs {
  readonly vaults: string[];
  readonly port: number;
  readonly json: boolean;
  readonly claudePath: string | null;
  readonly verbose: boolean;
}

const USAGE = BRIDGE_USAGE;
export { BRIDGE_USAGE };

function parseArgs(argv: readonly string[]): BridgeArgs | string {
  const vaults: string[] = [];
  let port = DEFAULT_BRIDGE_PORT;
  let json = false;
  let claudePath: string | null = null;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string | null => inline ?? argv[++i] ?? null;
    if (flag === "--vault") {
      const v = value();
      if (!v) return "--vault needs a folder.";
      vaults.push(resolve(v));
    } else if (flag === "--port") {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 0 || v > 65535) return "--port needs a number between 0 and 65535.";
      port = v;
    } else if (flag === "--claude-path") {
      claudePath = value();
      if (!claudePath) return "--claude-path needs a file.";
    } else if (flag === "--json") json = true;
    else if (flag === "--verbose") verbose = true;
    else if (flag === "--help" || flag === "-h") return "";
    else return `Unknown option ${arg}.`;
  }
  if (vaults.length === 0) return "Name at least one vault with --vault <dir>.";
  return { vaults, port, json, claudePath, verbose };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function runBridgeCommand(argv: string[], io: BridgeIo): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string") {
    if (args) io.stderr(`${args}\n\n`);
    (args ? io.stderr : io.stdout)(USAGE);
    return args ? 2 : 0;
  }
  const missing = args.vaults.filter((v) => !isDirectory(v));
  if (missing.length) {
    io.stderr(`Not a folder: ${missing.join(", ")}\n`);
    return 2;
  }
  const fromEnv = io.env.SYNAPSE_BRIDGE_TOKEN;
  if (fromEnv !== undefined && fromEnv.length < MIN_TOKEN_LENGTH) {
    io.stderr(`SYNAPSE_BRIDGE_TOKEN is shorter than ${MIN_TOKEN_LENGTH} characters; choose a longer one or unset it to get a fresh token.\n`);
    return 2;
  }
  const token = fromEnv ?? generateToken();
  const log = (line: string) => io.stderr(`[bridge] ${line}\n`);
  let server;
  try {
    server = await startBridgeServer({
      vaults: args.vaults,
      token,
      port: args.port,
      version: pkg.version,
      env: io.env,
      log,
      ...(args.claudePath ? { pathToClaudeCodeExecutable: args.claudePath } : {}),
      ...(args.verbose ? { agentStderr: (line: string) => io.stderr(`[agent] ${line}`) } : {}),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    io.stderr(
      code === "EADDRINUSE"
        ? `Port ${args.port} is in use; is a bridge already running? Choose another with --port.\n`
        : `The bridge could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }

  if (args.json) io.stdout(`${JSON.stringify({ url: server.url, token })}\n`);
  else {
    io.stdout(`Synapse bridge ${pkg.version} listening on ${server.url}\n`);
    io.stdout(`Token: ${token}\n`);
    io.stdout(`Paste the URL and the token into Obsidian → Settings → Synapse → CLI agent through the bridge (or set SYNAPSE_BRIDGE_TOKEN for the CLI).\n`);
  }
  const report = await diagnose({ version: pkg.version, vaults: args.vaults, env: io.env, ...(args.claudePath ? { pathToClaudeCodeExecutable: args.claudePath } : {}) });
  for (const line of report.details) io.stderr(`  ok: ${line}\n`);
  for (const line of report.problems) io.stderr(`  fix: ${line}\n`);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    if (io.signal) {
      if (io.signal.aborted) stop();
      else io.signal.addEventListener("abort", stop, { once: true });
    } else {
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    }
  });
  log("stopping");
  await server.close();
  return 0;
}
