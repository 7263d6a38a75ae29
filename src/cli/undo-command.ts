/** `synapse undo --vault <dir> [--json]`: reverts the last run; refuses (exit 5) over the user's later edits. */
import { toSynapseError } from "../core/errors";
import { describeRunForUndo } from "../write/run-description";
import { previewUndo, undoLastRun } from "../write/undo";
import { deviceName } from "../write/writer-device";
import { EXIT, type CliIO } from "./io";
import { openVault } from "./vault-command";

export { UNDO_USAGE } from "./usage";

export async function runUndoCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { vault, write, wikiFolder, json } = await openVault(argv, io, "write");
  const preview = await previewUndo(vault, write);
  if (!preview) {
    if (json) io.stdout(`${JSON.stringify({ undone: null, files: [], edited: [], error: null })}\n`);
    else io.stdout("Nothing to undo.\n");
    return EXIT.ok;
  }
  const { run, conflicts } = preview;
  const what = describeRunForUndo(run);
  if (conflicts.length > 0) {
    const message = `Not undone: these files were edited after ${what}; undo would discard those edits.`;
    if (json) io.stdout(`${JSON.stringify({ undone: null, files: [], edited: conflicts, error: { kind: "edited", message } })}\n`);
    else io.stderr(`${message}\n${conflicts.map((f) => `  ${f}\n`).join("")}Undo your edits of those files first, or keep the run.\n`);
    return EXIT.edited;
  }
  try {
    const outcome = await undoLastRun(vault, write, { wikiFolder });
    const files = outcome?.result.changes.filter((c) => c.action !== "unchanged") ?? [];
    if (json) io.stdout(`${JSON.stringify({ undone: { id: run.id, operation: run.operation, label: run.label, device: deviceName(run.writer) }, files, edited: [], error: null })}\n`);
    else io.stdout(`Undid ${what}:\n${files.map((f) => `  ${f.action} ${f.path}\n`).join("")}`);
    return EXIT.ok;
  } catch (error) {
    const failure = toSynapseError(error, "vault");
    if (json) io.stdout(`${JSON.stringify({ undone: null, files: [], edited: [], error: { kind: failure.kind, message: failure.message } })}\n`);
    else io.stderr(`Error (${failure.kind}): ${failure.message}\n`);
    return EXIT.failure;
  }
}
