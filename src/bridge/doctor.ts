/**
 * The bridge's doctor (GET /health): is the Agent SDK installed, is its native binary there and
 * does it start, does the agent have credentials, do the served vaults exist. Each finding is one
 * sentence; each problem says what to do.
 */
import process from "node:process";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { authMethod } from "./agent-env";
import { BRIDGE_PROTOCOL_VERSION, type HealthReport } from "../core/bridge-protocol";

const SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";

interface SdkLocation {
  readonly entry: string | null;
  readonly version: string | null;
}

export function locateSdk(): SdkLocation {
  try {
    const entry = createRequire(import.meta.url).resolve(SDK_PACKAGE);
    const pkg: unknown = JSON.parse(readFileSync(join(dirname(entry), "package.json"), "utf8"));
    const version = typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string" ? pkg.version : null;
    return { entry, version };
  } catch {
    return { entry: null, version: null };
  }
}

/** Where the SDK would find its native binary (the per-platform optional package). */
export function locateBinary(sdkEntry: string | null, override?: string): string | null {
  if (override) return existsSync(override) ? override : null;
  if (!sdkEntry) return null;
  const require = createRequire(sdkEntry);
  const exe = process.platform === "win32" ? "claude.exe" : "claude";
  const base = `${SDK_PACKAGE}-${process.platform}-${process.arch}`;
  const candidates = process.platform === "linux" ? [base, `${base}-musl`] : [base];
  for (const candidate of candidates) {
    try {
      return require.resolve(`${candidate}/${exe}`);
    } catch {
      // try the next one
    }
  }
  return null;
}

function binaryVersion(path: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ["--version"], { timeout: 10_000, windowsHide: true }, (error, stdout) => {
      if (error) resolve(null);
      else resolve(stdout.trim().split(/\s+/)[0] ?? null);
    });
  });
}

function loggedIn(env: Readonly<Record<string, string | undefined>>): boolean {
  const home = env.HOME ?? env.USERPROFILE;
  const configDir = env.CLAUDE_CONFIG_DIR ?? (home ? join(home, ".claude") : null);
  return configDir !== null && existsSync(join(configDir, ".credentials.json"));
}

export interface DoctorOptions {
  readonly version: string;
  readonly vaults: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pathToClaudeCodeExecutable?: string;
}

export async function diagnose(options: DoctorOptions): Promise<HealthReport> {
  const details: string[] = [];
  const problems: string[] = [];
  const sdk = locateSdk();
  if (sdk.entry) details.push(`The Claude Agent SDK ${sdk.version ?? ""} is installed.`.replace("  ", " "));
  else problems.push(`The Claude Agent SDK is not installed next to the bridge; run "npm install" in the Synapse folder.`);

  const binaryPath = locateBinary(sdk.entry, options.pathToClaudeCodeExecutable);
  const version = binaryPath ? await binaryVersion(binaryPath) : null;
  if (!binaryPath) {
    problems.push(
      `The agent's native binary for ${process.platform}-${process.arch} is missing; reinstall with "npm install" (optional dependencies must not be skipped).`,
    );
  } else if (!version) {
    problems.push(`The agent's native binary at ${binaryPath} does not start; reinstall the Agent SDK or check that it matches this system.`);
  } else {
    details.push(`The agent's native binary (Claude Code ${version}) starts.`);
  }

  let method = authMethod(options.env);
  if (!method && loggedIn(options.env)) method = "claude login";
  if (method) {
    details.push(`The agent authenticates with ${method}${options.env.ANTHROPIC_BASE_URL ? ` against ${options.env.ANTHROPIC_BASE_URL}` : ""}.`);
  } else {
    problems.push("The agent has no credentials; set ANTHROPIC_API_KEY in the bridge's environment and restart the bridge.");
  }

  for (const vault of options.vaults) {
    const ok = (() => {
      try {
        return statSync(vault).isDirectory();
      } catch {
        return false;
      }
    })();
    if (ok) details.push(`Serving the vault at ${vault}.`);
    else problems.push(`The vault folder ${vault} no longer exists; restart the bridge with the right --vault.`);
  }

  return {
    ok: problems.length === 0,
    protocol: BRIDGE_PROTOCOL_VERSION,
    version: options.version,
    sdk: { found: sdk.entry !== null, version: sdk.version },
    binary: { found: binaryPath !== null, path: binaryPath, version },
    auth: { configured: method !== null, method },
    vaults: [...options.vaults],
    details,
    problems,
  };
}
