/** `synapse index --vault <dir>`: builds or updates the vault's search index and reports what it did. */
import { storedBytes } from "../retrieval";
import { EMBED_FLAG_OPTIONS, embedFlagsOf } from "./embed-flags";
import { EXIT, parseFlags, type CliIO } from "./io";
import { openVaultIndex } from "./open-index";

export { INDEX_USAGE } from "./usage";

export async function runIndexCommand(argv: readonly string[], io: CliIO, options: { signal?: AbortSignal } = {}): Promise<number> {
  io.mark?.("command");
  const { values } = parseFlags({ args: [...argv], strict: true, options: { vault: { type: "string" }, json: { type: "boolean" }, verbose: { type: "boolean" }, ...EMBED_FLAG_OPTIONS } });
  const json = values.json === true;
  const started = performance.now();
  const { index, sync, store } = await openVaultIndex(values.vault, io, { progress: !json, embed: embedFlagsOf(values), ...(options.signal ? { signal: options.signal } : {}) });
  const tookMs = Math.round(performance.now() - started);
  const bytes = await storedBytes(store);
  const stats = index.stats();
  const report = {
    notes: stats.notes,
    chunks: stats.chunks,
    indexed: sync.indexed,
    removed: sync.removed,
    unchanged: sync.unchanged,
    rebuiltShards: stats.rejectedShards,
    /** Vector shards dropped when the index opened (damaged, outdated, of another model or dimension): their notes are embedded again. */
    rebuiltVectorShards: stats.vectors?.rejectedShards ?? 0,
    bytes,
    tookMs,
    /** Notes with vectors, chunks sent to the embedding model this run, and why vectors are off (null when they are not). */
    vectorNotes: stats.vectors?.notes ?? 0,
    embedded: sync.embedded,
    vectorError: sync.vectorError,
  };
  if (json) io.stdout(`${JSON.stringify(report)}\n`);
  else {
    io.stdout(
      `${report.notes} notes (${report.chunks} chunks) indexed: ${report.indexed} new or changed, ${report.removed} removed, ${report.unchanged} unchanged; ` +
        `${(bytes / 1e6).toFixed(1)} MB on disk; ${tookMs} ms.\n` +
        (stats.vectors ? `${report.vectorNotes} notes have vectors (${report.embedded} chunks embedded now, the rest from the cache).\n` : ""),
    );
  }
  return EXIT.ok;
}
