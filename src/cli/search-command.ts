/** `synapse search "<query>" --vault <dir>`: ranked results from the vault's index, updated first. */
import { plural } from "../core/plural";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { isExcluded } from "../core/perimeter";
import { checkQuery, parseScope, type Scope } from "../retrieval";
import { NodeVault } from "../vault/node-vault";
import { EMBED_FLAG_OPTIONS, embedFlagsOf } from "./embed-flags";
import { type CliIO, EXIT, UsageError, parseFlags } from "./io";
import { openVaultIndex } from "./open-index";
import { readVaultSettings } from "./vault-settings";

export { SEARCH_USAGE } from "./usage";

function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { vault: { type: "string" }, scope: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" }, verbose: { type: "boolean" }, ...EMBED_FLAG_OPTIONS },
  });
}

export async function runSearchCommand(argv: readonly string[], io: CliIO, options: { signal?: AbortSignal } = {}): Promise<number> {
  io.mark?.("command");
  const { values, positionals } = parse(argv);
  if (positionals.length !== 1 || (positionals[0] ?? "").trim() === "") throw new UsageError('Give one query, in quotes: synapse search "my words" --vault <dir>.');
  // Plain digits only: Number() would take "1e1", "0x5" or " 7 ".
  const limit = values.limit === undefined ? 10 : /^\d+$/.test(values.limit) ? Number(values.limit) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit must be a whole number from 1 to 1000 (got "${values.limit ?? ""}").`);
  let scope;
  try {
    checkQuery(positionals[0] ?? "");
    scope = parseScope(values.scope ?? "all");
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.vault !== undefined) await checkFolders(resolve(io.cwd, values.vault), scope);
  const json = values.json === true;
  const { index } = await openVaultIndex(values.vault, io, { progress: !json, embed: embedFlagsOf(values), ...(options.signal ? { signal: options.signal } : {}) });
  const vectorErrorBefore = index.vectors?.error ?? null;
  const started = performance.now();
  const hits = await index.retrieve(positionals[0] ?? "", { scope, limit, ...(options.signal ? { signal: options.signal } : {}) });
  const tookMs = Math.round((performance.now() - started) * 10) / 10;
  io.mark?.("queried");
  const vectorError = index.vectors?.error ?? null;
  if (vectorError && vectorError !== vectorErrorBefore) io.stderr(`Warning: ${vectorError}\n`);
  if (json) {
    io.stdout(`${JSON.stringify({ results: hits.map((h) => ({ path: h.path, heading: h.heading, score: h.score, snippet: h.snippet })), tookMs })}\n`);
    return EXIT.ok;
  }
  if (hits.length === 0) io.stdout(`No results (${tookMs} ms).\n`);
  hits.forEach((h, i) => {
    io.stdout(`${i + 1}. ${h.path}${h.heading ? ` › ${h.heading}` : ""}  (${h.score.toFixed(4)})\n   ${h.snippet}\n`);
  });
  if (hits.length > 0) io.stdout(`${plural(hits.length, "result")} in ${tookMs} ms.\n`);
  return EXIT.ok;
}

/**
 * A folder scope names folders of the vault: a name that is none (a typo) is a usage error, not a
 * search that quietly finds nothing.
 */
async function checkFolders(vaultRoot: string, scope: Scope): Promise<void> {
  if (scope.kind !== "folders") return;
  const vault = new NodeVault(vaultRoot);
  for (const folder of scope.folders) {
    let full: string;
    try {
      full = vault.resolvePath(folder);
    } catch {
      throw new UsageError(`The folder "${folder}" is outside the vault.`);
    }
    // A missing vault is reported as such when the index opens.
    if (!(await stat(vaultRoot).catch(() => null))?.isDirectory()) return;
    if (!(await stat(full).catch(() => null))?.isDirectory()) throw new UsageError(`The vault has no folder "${folder}" (--scope takes wiki, notes, all or folders of the vault).`);
  }
  // A scope wholly inside excluded folders would always find nothing: say why instead.
  const { excludedFolders } = (await readVaultSettings(vaultRoot)).settings;
  const hidden = scope.folders.filter((folder) => isExcluded(`${folder}/-.md`, excludedFolders));
  if (hidden.length === scope.folders.length) {
    const names = hidden.map((f) => `"${f}"`).join(", ");
    throw new UsageError(`${names} ${hidden.length === 1 ? "is" : "are"} in the excluded folders (settings: Excluded folders), which are never indexed nor searched.`);
  }
}

