/** `synapse ingest <note|folder> --vault <dir> …`: ingests from a terminal, same core as the plugin. */
import { plural } from "../core/plural";
import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { toSynapseError } from "../core/errors";
import { MemoryRunLogger, type ContextEvent } from "../core/log";
import { createProvider } from "../providers/factory";
import { NodeVault } from "../vault/node-vault";
import { createNodeFetch } from "../providers/transports/node-fetch";
import { envSecrets } from "./env-secrets";
import { runFolderIngest } from "./folder-ingest";
import { runCliIngest, type CliIngestContext } from "./ingest-run";
import { type CliIO, EXIT, UsageError, parseFlags, BACKEND_FLAG_OPTIONS } from "./io";
import { jsonFolderProviderFailure } from "./folder-report";
import { openIndexIn, type OpenedIndex } from "./open-index";
import { recoverVault } from "./recovery";
import { describeProgress, exitCodeFor, humanReport, jsonProviderFailure, jsonReport } from "./report";
import { applyFlags} from "./vault-settings";
import { followPages } from "../wiki/index-follow";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { existingVaultRoot, settingsWithWarnings, cliWriteContext } from "./vault-root";

export { INGEST_USAGE } from "./usage";

export interface IngestCommandOptions {
  /** Aborts the run (the CLI wires Ctrl-C to it). */
  readonly signal?: AbortSignal;
  /** Told when writing to the vault starts and ends, so a second Ctrl-C does not cut it in half. */
  readonly writing?: (inProgress: boolean) => void;
}

function parse(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      vault: { type: "string" },
      ...BACKEND_FLAG_OPTIONS,
      "bridge-url": { type: "string" },
      "max-iter": { type: "string" },
      lang: { type: "string" },
      "dry-run": { type: "boolean" },
      diff: { type: "boolean" },
      force: { type: "boolean" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
      batch: { type: "boolean" },
    },
  });
}

/** The note (or folder) as a vault-relative path: accepts it relative to the vault, or to the working directory. */
async function notePathIn(vaultRoot: string, note: string, cwd: string): Promise<string> {
  const fromCwd = resolve(cwd, note);
  const inside = relative(vaultRoot, fromCwd);
  const usable = !inside.startsWith("..") && !isAbsolute(inside);
  if (isAbsolute(note) || (usable && (await stat(fromCwd).catch(() => null)))) {
    if (!usable) throw new UsageError(`The note "${note}" is not inside the vault ${vaultRoot}.`);
    return inside.split(sep).join("/");
  }
  // A backslash separates folders only on Windows; elsewhere it is a character of a name (back\slash.md).
  return sep === "\\" ? note.replace(/\\/g, "/") : note;
}

/** Is this vault path a folder? (A missing path is a note: the ingest then says it is missing.) */
async function isFolder(vault: NodeVault, path: string): Promise<boolean> {
  if (path === "") return true;
  try {
    return (await stat(vault.resolvePath(path))).isDirectory();
  } catch {
    return false;
  }
}

/** The run log's record of the model's context, as --verbose prints it: what was quoted, and what did not fit. */
export function contextLines(contexts: readonly ContextEvent[]): string[] {
  return contexts.flatMap((c) => [
    `context: ${plural(c.included.length, "related passage")}, ${c.usedTokens.toLocaleString("en-US")} of ${c.budgetTokens.toLocaleString("en-US")} tokens`,
    ...c.included.map((i) => `  quoted ${i.path}${i.heading ? ` # ${i.heading}` : ""}${i.truncated ? " (cut to fit)" : ""}`),
    ...c.omitted.map((o) => `  left out ${o.path}${o.heading ? ` # ${o.heading}` : ""} (${o.tokens.toLocaleString("en-US")} tokens, no room)`),
  ]);
}

/** Writes the index once the command's ingests are done; failing to only costs the next command a re-read. */
async function saveIndex(opened: OpenedIndex | null, io: CliIO): Promise<void> {
  await opened?.finish().catch((error: unknown) => io.stderr(`Warning: the search index was not saved (${toSynapseError(error).message}).\n`));
}

export async function runIngestCommand(argv: readonly string[], io: CliIO, options: IngestCommandOptions = {}): Promise<number> {
  const { values, positionals } = parse(argv);
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "Name the note to ingest." : `Ingest one note or one folder at a time (got ${positionals.length}).`);
  const vaultRoot = await existingVaultRoot(values.vault, io);
  // "." and "./notes/" name folders of the vault as well as "" and "notes" do.
  const notePath = (await notePathIn(vaultRoot, positionals[0] ?? "", io.cwd))
    .split("/")
    .filter((part, i, parts) => part !== "." && (part !== "" || i === parts.length - 1))
    .join("/")
    .replace(/\/$/, "");

  const loaded = await settingsWithWarnings(vaultRoot, io);
  const { id, settings } = applyFlags(loaded.settings, {
    ...(values.provider !== undefined ? { provider: values.provider } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
    ...(values["bridge-url"] !== undefined ? { bridgeUrl: values["bridge-url"] } : {}),
    ...(values["max-iter"] !== undefined ? { maxIter: values["max-iter"] } : {}),
    ...(values.lang !== undefined ? { lang: values.lang } : {}),
  });

  const json = values.json === true;
  const vault = new NodeVault(vaultRoot);
  const write = cliWriteContext(vaultRoot, io);
  await recoverVault(vault, settings.wikiFolder, write, io);
  const folder = await isFolder(vault, notePath);
  if (values.batch) {
    if (values.force) throw new UsageError("--force does not go with --batch: a batch ingests the notes that changed since their last ingest.");
    const { runBatchIngest } = await import("./batch-ingest-command");
    return runBatchIngest({
      vaultRoot,
      vault,
      write,
      id,
      settings,
      target: notePath,
      folder,
      flags: { baseUrl: values["base-url"] ?? null, maxIter: values["max-iter"] ?? null, lang: values.lang ?? null },
      dryRun: values["dry-run"] === true,
      diff: values.diff === true,
      json,
      io,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.writing ? { writing: options.writing } : {}),
    });
  }
  const logger = new MemoryRunLogger(settings.logContent);
  let provider;
  try {
    // Node's own fetch compiles undici's HTTP parser on its first request (about 0.3 s); the
    // node:http transport the desktop plugin streams with starts at once.
    const transport = createNodeFetch();
    provider = createProvider(id, { settings, secrets: envSecrets(io.env), fetch: transport, streamingFetch: transport, logger, vaultPath: vaultRoot });
  } catch (error) {
    const failure = toSynapseError(error, "config");
    if (json) io.stdout(`${folder ? jsonFolderProviderFailure(notePath, failure.kind, failure.message) : jsonProviderFailure(id, failure.kind, failure.message)}\n`);
    else io.stderr(`Error (${failure.kind}): ${failure.message}\n`);
    return EXIT.provider;
  }
  // The index is brought up to date once per command, before the first note (a folder's notes
  // share it), and checked only where the ingest reads: the wiki (retrieval's scope, the page
  // count, the names of pages) and the note or folder being ingested. The rest of the vault is
  // listed by name (new notes indexed, vanished ones dropped), never statted; a later
  // `synapse search` or `synapse index` catches up with notes edited there.
  const only = { folders: [effectiveWikiFolder(settings.wikiFolder), ...(folder ? [notePath] : [])], notes: folder ? [] : [notePath] };
  const opened = await openIndexIn(vaultRoot, settings, io, { progress: !json, persist: values["dry-run"] === true ? "never" : "refresh", only, ...(options.signal ? { signal: options.signal } : {}) }).catch((error: unknown) => {
    // Without the index the ingest still runs, as before it existed: title matching over a listing.
    if (!options.signal?.aborted) io.stderr(`Warning: the search index could not be opened (${toSynapseError(error).message}); ingesting without it.\n`);
    return null;
  });
  // Pages renamed, moved or deleted on disk since the last run: index.md follows them first, in a
  // run of its own (nothing reports such changes outside Obsidian).
  if (values["dry-run"] !== true) {
    const followed = await followPages(vault, write, effectiveWikiFolder(settings.wikiFolder)).catch(() => null);
    if (followed?.runId) io.stderr("index.md now follows the wiki pages renamed, moved or deleted since the last run.\n");
  }
  const ctx: CliIngestContext = {
    vault,
    write,
    provider,
    settings,
    logger,
    io,
    dryRun: values["dry-run"] === true,
    force: values.force === true,
    diff: values.diff === true,
    json,
    ...(opened ? { index: { retriever: opened.index, catalog: opened.catalog } } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.writing ? { writing: options.writing } : {}),
  };
  const caps = provider.capabilities();
  const using = `${caps.name}${caps.model ? ` (${caps.model})` : ""}${caps.isLocal ? ", on this machine" : ""}`;
  if (folder) {
    const code = await runFolderIngest(notePath, ctx, using);
    await saveIndex(opened, io);
    return code;
  }

  if (!json) io.stderr(`Ingesting ${notePath} with ${using}…\n`);
  const { report, diffs } = await runCliIngest(notePath, ctx, (event) => {
    const line = describeProgress(event);
    if (line && !json) io.stderr(`  ${line}\n`);
  });
  await saveIndex(opened, io);
  if (json) io.stdout(`${jsonReport(report, diffs)}\n`);
  else io.stdout(humanReport(report, notePath));
  if (values.verbose && report.error) {
    for (const event of logger.events) io.stderr(`  call ${event.operation} ${event.provider} ${event.outcome} ${event.durationMs} ms\n`);
  }
  if (values.verbose) for (const line of contextLines(logger.contexts)) io.stderr(`  ${line}\n`);
  return exitCodeFor(report);
}
