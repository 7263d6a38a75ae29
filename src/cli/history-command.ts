/** `synapse history --vault <dir> [--json]`: the last runs that changed the vault, newest first. */
import { readHistory, undoneIds } from "../write/run-history";
import { EXIT, type CliIO } from "./io";
import { openVault } from "./vault-command";

export { HISTORY_USAGE } from "./usage";

export async function runHistoryCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { write, json } = await openVault(argv, io, "read");
  const { runs, unreadable } = await readHistory(write.store);
  for (const key of unreadable) io.stderr(`Warning: the history record ${key} could not be read.\n`);
  const undone = undoneIds(runs);
  const rows = runs.map((r) => ({
    id: r.id,
    operation: r.operation,
    label: r.label,
    at: new Date(r.at).toISOString(),
    undone: undone.has(r.id),
    undoes: r.undoes,
    files: r.files.map((f) => ({ path: f.path, action: f.action })),
  }));
  if (json) {
    io.stdout(`${JSON.stringify({ runs: rows })}\n`);
    return EXIT.ok;
  }
  if (rows.length === 0) io.stdout("No runs recorded yet.\n");
  for (const row of rows) {
    const pages = row.files.filter((f) => !/\/(index|log)\.md$/.test(f.path) && f.path !== "index.md");
    const counts = new Map<string, number>();
    for (const f of pages) counts.set(f.action, (counts.get(f.action) ?? 0) + 1);
    const summary = [...counts].map(([a, n]) => `${n} ${a}`).join(", ") || "index only";
    io.stdout(`${row.at.slice(0, 16).replace("T", " ")}  ${row.operation.padEnd(6)}  ${row.label}  (${summary})${row.undone ? "  [undone]" : ""}\n`);
  }
  return EXIT.ok;
}
