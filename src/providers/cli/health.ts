/**
 * "Test connection" for the CLI agent: asks the bridge's doctor and turns its answer into the
 * readiness report every provider gives, in words a user can act on.
 */
import { BRIDGE_PROTOCOL_VERSION, HealthReportSchema } from "../../core/bridge-protocol";
import { SynapseError } from "../../core/errors";
import { problemFields, type ReadinessReport, type WordedProblem } from "../../core/readiness";
import type { FetchLike } from "../environment";
import { bridgeHttpError, checkBridgeUrl, endpoint, PLUGIN_TOKEN_HINT, startBridgeHint, TOKEN_HINT } from "./bridge-errors";
import { CLI_PROVIDER_NAME } from "./cli-provider";

export interface BridgeHealthOptions {
  readonly bridgeUrl: string;
  readonly token: string | null;
  readonly fetch: FetchLike;
  /** The vault this plugin or CLI works on; reported when the bridge does not serve it. */
  readonly vaultPath?: string | null;
  readonly signal?: AbortSignal;
}

function normaliseFolder(path: string): string {
  return path.replace(/\\/g, "/").replace(/\/+$/, "");
}

function failed(reachable: boolean, problem: string | WordedProblem, version: string | null = null, notSetUp = false): ReadinessReport {
  return { provider: CLI_PROVIDER_NAME, ok: false, reachable, version, models: [], modelPresent: null, details: [], ...problemFields([problem]), notSetUp };
}

export async function checkBridgeHealth(options: BridgeHealthOptions): Promise<ReadinessReport> {
  let base: URL;
  try {
    base = checkBridgeUrl(options.bridgeUrl);
  } catch (error) {
    return failed(false, SynapseError.isInstance(error) ? error.message : String(error), null, true);
  }
  // Obsidian's words: what to run and where the token goes, never the CLI's environment variable.
  const start = startBridgeHint(options.vaultPath);
  if (!options.token?.trim()) return failed(false, { message: `No bridge token is set. ${TOKEN_HINT}`, pluginMessage: `${start} ${PLUGIN_TOKEN_HINT}` }, null, true);
  let response: Response;
  try {
    response = await options.fetch(endpoint(base, "/health"), {
      headers: { authorization: `Bearer ${options.token.trim()}` },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch {
    return failed(false, {
      message: `Nothing answers at ${options.bridgeUrl}; start the bridge with "synapse bridge --vault <your vault>" (or "npm run bridge -- --vault <your vault>").`,
      pluginMessage: `Nothing answers at ${options.bridgeUrl}. ${start} If it runs, set "Bridge URL" to the address it printed.`,
    });
  }
  if (!response.ok) return failed(true, await bridgeHttpError(response, options.bridgeUrl));
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const parsed = HealthReportSchema.safeParse(body);
  if (!parsed.success) return failed(true, `Something answers at ${options.bridgeUrl}, but it is not a Synapse bridge.`);
  const health = parsed.data;
  const problems = [...health.problems];
  if (health.protocol !== BRIDGE_PROTOCOL_VERSION) {
    problems.push(`The bridge speaks protocol ${health.protocol} and this Synapse speaks ${BRIDGE_PROTOCOL_VERSION}; update both to the same version.`);
  }
  if (options.vaultPath) {
    const wanted = normaliseFolder(options.vaultPath);
    if (!health.vaults.some((v) => normaliseFolder(v) === wanted)) {
      problems.push(`The bridge does not appear to serve this vault (${options.vaultPath}); restart it with --vault "${options.vaultPath}".`);
    }
  }
  return {
    provider: CLI_PROVIDER_NAME,
    ok: problems.length === 0,
    reachable: true,
    version: health.version,
    models: [],
    modelPresent: null,
    details: [`The bridge ${health.version} answers at ${options.bridgeUrl}.`, ...health.details],
    problems,
  };
}
