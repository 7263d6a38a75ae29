/**
 * Runs other devices left half-written, brought in by sync: each is a finding, whose fix undoes it
 * here through the write path (`undoForeignRun`). Not a safe fix: the owning device may still be
 * about to roll it back itself, and a person should choose.
 */
import { describeForeignRun, foreignJournals } from "../write/journal";
import type { WriteContext } from "../write/apply";
import type { Finding } from "./types";

export async function interruptedRunFindings(write: Pick<WriteContext, "store" | "writer">): Promise<Finding[]> {
  return (await foreignJournals(write.store, write.writer)).map((run) => ({
    check: "interrupted-run",
    severity: "warning",
    page: run.key,
    message: `${describeForeignRun(run)}.`,
    fixes: [{ kind: "undo-interrupted-run", label: `Undo the ${run.journal.operation} of “${run.journal.label}” interrupted on ${run.device}`, safe: false, params: { journal: run.key } }],
  }));
}
