/** Runs the built CLI (dist/cli.mjs, built by the global setup) as a real process. */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export const CLI = new URL("../../dist/cli.mjs", import.meta.url).pathname;

/** The device every CLI a test starts runs on (never the user's own config folder). */
export const TEST_DEVICE_ID = "test-device-0001";
const deviceFile = join(mkdtempSync(join(tmpdir(), "synapse-device-")), "device-id");
writeFileSync(deviceFile, `${TEST_DEVICE_ID}\n`);

/** The environment of a CLI a test starts: PATH, HOME and the test device. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", SYNAPSE_DEVICE_ID_FILE: deviceFile, ...extra };
}

export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; nodeArgs?: readonly string[] } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: cliEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`CLI timed out: ${args.join(" ")}\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
