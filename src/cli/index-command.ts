/** `synapse index --vault <dir>`: builds or updates the vault's search index and reports what it did. */
import { isIndexFile } from "../retrieval/index-files";
import { INDEX_PREFIX } from "../retrieval/shards";
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
  let bytes = 0;
  // Sizes from stat: reading the files back cost 2 s at 50,000 notes (216 MB).
  for (const key of await store.list(INDEX_PREFIX)) if (isIndexFile(key)) bytes += (await store.sizeOf(key)) ?? 0;
  const report = {
    notes: index.size,
    chunks: index.text.chunkCount,
    indexed: sync.indexed,
    removed: sync.removed,
    unchanged: sync.unchanged,
    rebuiltShards: index.rejectedShards,
    /** Vector shards dropped when the index opened (damaged, outdated, of another model or dimension): their notes are embedded again. */
    rebuiltVectorShards: index.vectors?.rejectedShards ?? 0,
    bytes,
    tookMs,
    /** Notes with vectors, chunks sent to the embedding model this run, and why vectors are off (null when they are not). */
    vectorNotes: index.vectors?.index.noteCount ?? 0,
    embedded: sync.embedded,
    vectorError: sync.vectorError,
  };
  if (json) io.stdout(`${JSON.stringify(report)}\n`);
  else {
    io.stdout(
      `${report.notes} notes (${report.chunks} chunks) indexed: ${report.indexed} new or changed, ${report.removed} removed, ${report.unchanged} unchanged; ` +
        `${(bytes / 1e6).toFixed(1)} MB on disk; ${tookMs} ms.\n` +
        (index.vectors ? `${report.vectorNotes} notes have vectors (${report.embedded} chunks embedded now, the rest from the cache).\n` : ""),
    );
  }
  return EXIT.ok;
}
