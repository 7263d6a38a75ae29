/** `synapse index --vault <dir>`: builds or updates the vault's search index and reports what it did. */
import { parseArgs } from "node:util";
import { INDEX_PREFIX } from "../retrieval/shards";
import { EXIT, UsageError, type CliIO } from "./io";
import { openVaultIndex } from "./open-index";

export { INDEX_USAGE } from "./usage";

export async function runIndexCommand(argv: readonly string[], io: CliIO, options: { signal?: AbortSignal } = {}): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, options: { vault: { type: "string" }, json: { type: "boolean" }, verbose: { type: "boolean" } } }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const json = values.json === true;
  const started = performance.now();
  const { index, sync, store } = await openVaultIndex(values.vault, io, { progress: !json, ...(options.signal ? { signal: options.signal } : {}) });
  const tookMs = Math.round(performance.now() - started);
  let bytes = 0;
  for (const key of await store.list(INDEX_PREFIX)) bytes += (await store.readBytes(key))?.byteLength ?? 0;
  const report = {
    notes: index.size,
    chunks: index.text.chunkCount,
    indexed: sync.indexed,
    removed: sync.removed,
    unchanged: sync.unchanged,
    rebuiltShards: index.rejectedShards,
    bytes,
    tookMs,
  };
  if (json) io.stdout(`${JSON.stringify(report)}\n`);
  else {
    io.stdout(
      `${report.notes} notes (${report.chunks} chunks) indexed: ${report.indexed} new or changed, ${report.removed} removed, ${report.unchanged} unchanged; ` +
        `${(bytes / 1e6).toFixed(1)} MB on disk; ${tookMs} ms.\n`,
    );
  }
  return EXIT.ok;
}
