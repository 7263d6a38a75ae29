/** `synapse ingest <note|folder> --vault <dir> …`: ingests from a terminal, same core as the plugin. */
import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import { createProvider } from "../providers/factory";
import { NodeVault } from "../vault/node-vault";
import { createNodeFetch } from "../providers/transports/node-fetch";
import { nodeWriteContext } from "../vault/node-write-context";
import { envSecrets } from "./env-secrets";
import { runFolderIngest } from "./folder-ingest";
import { runCliIngest, type CliIngestContext } from "./ingest-run";
import { type CliIO, EXIT, UsageError, parseFlags } from "./io";
import { jsonFolderProviderFailure } from "./folder-report";
import { recoverVault } from "./recovery";
import { describeProgress, exitCodeFor, humanReport, jsonProviderFailure, jsonReport } from "./report";
import { applyFlags, readVaultSettings } from "./vault-settings";

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
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "bridge-url": { type: "string" },
      "max-iter": { type: "string" },
      lang: { type: "string" },
      "dry-run": { type: "boolean" },
      diff: { type: "boolean" },
      force: { type: "boolean" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
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
  return note.replace(/\\/g, "/");
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

export async function runIngestCommand(argv: readonly string[], io: CliIO, options: IngestCommandOptions = {}): Promise<number> {
  const { values, positionals } = parse(argv);
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "Name the note to ingest." : `Ingest one note or one folder at a time (got ${positionals.length}).`);
  if (!values.vault) throw new UsageError("--vault <dir> is required.");
  const vaultRoot = resolve(io.cwd, values.vault);
  const vaultStat = await stat(vaultRoot).catch(() => null);
  if (!vaultStat?.isDirectory()) throw new UsageError(`The vault folder ${vaultRoot} does not exist.`);
  // "." and "./notes/" name folders of the vault as well as "" and "notes" do.
  const notePath = (await notePathIn(vaultRoot, positionals[0] ?? "", io.cwd))
    .split("/")
    .filter((part, i, parts) => part !== "." && (part !== "" || i === parts.length - 1))
    .join("/")
    .replace(/\/$/, "");

  const loaded = await readVaultSettings(vaultRoot);
  for (const warning of loaded.warnings) io.stderr(`Warning: ${warning}\n`);
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
  const write = nodeWriteContext(vaultRoot, { kind: "cli", env: io.env, notify: (line) => io.stderr(`${line}\n`) });
  await recoverVault(vault, settings.wikiFolder, write, io);
  const folder = await isFolder(vault, notePath);
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
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.writing ? { writing: options.writing } : {}),
  };
  const caps = provider.capabilities();
  const using = `${caps.name}${caps.model ? ` (${caps.model})` : ""}${caps.isLocal ? ", on this machine" : ""}`;
  if (folder) return runFolderIngest(notePath, ctx, using);

  if (!json) io.stderr(`Ingesting ${notePath} with ${using}…\n`);
  const { report, diffs } = await runCliIngest(notePath, ctx, (event) => {
    const line = describeProgress(event);
    if (line && !json) io.stderr(`  ${line}\n`);
  });
  if (json) io.stdout(`${jsonReport(report, diffs)}\n`);
  else io.stdout(humanReport(report, notePath));
  if (values.verbose && report.error) {
    for (const event of logger.events) io.stderr(`  call ${event.operation} ${event.provider} ${event.outcome} ${event.durationMs} ms\n`);
  }
  return exitCodeFor(report);
}
