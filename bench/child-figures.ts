/** A benchmark's measurement run in a fresh process (its time and memory its own): the JSON line it prints last. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

/** Runs `bench/<script>` with `args` under tsx, with room for a 50,000-note index, and reads its figures (of the shape the script prints). */
export function childFigures<Figures extends Record<string, unknown>>(script: string, args: readonly string[]): Partial<Figures> {
  const result = spawnSync(process.execPath, ["--max-old-space-size=4096", "--import", "tsx", join(import.meta.dirname, script), ...args], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${script} ${args[0] ?? ""} failed (exit ${result.status}):\n${result.stderr}`);
  const line = result.stdout.trim().split("\n").at(-1) ?? "{}";
  return JSON.parse(line) as Partial<Figures>;
}
