/** Turns the bridge's JSON errors and transport failures into SynapseErrors a user can act on. */
import { ErrorBodySchema } from "../../core/bridge-protocol";
import { SynapseError, type ErrorKind } from "../../core/errors";

/**
 * Where the bridge's token goes. The bridge is a terminal program, so "the token it printed" is
 * the same on both surfaces; only where to put it differs.
 */
export const TOKEN_HINT =
  'Copy the token "synapse bridge" printed on start into Settings → Synapse → CLI agent through the bridge → Bridge token (or set SYNAPSE_BRIDGE_TOKEN for the CLI).';
export const PLUGIN_TOKEN_HINT = 'Put the token the bridge printed on start in the secret chosen under "Bridge token" (CLI agent through the bridge).';

/**
 * How to start the bridge, as Obsidian says it: the command to run in a terminal, with this vault's
 * folder when it is known (the bridge serves only the vaults it was started with).
 */
export function startBridgeHint(vaultPath: string | null | undefined): string {
  return `Start the bridge in a terminal: synapse bridge --vault "${vaultPath ?? "<your vault folder>"}".`;
}

function kindFor(status: number, code: string): ErrorKind {
  if (code === "busy" || status === 429) return "rate_limit";
  if (code === "note_not_found" || code === "folder_not_found" || code === "not_a_note" || code === "outside_vault") return "vault";
  if (code === "vault_not_served" || code === "forbidden_host" || code === "forbidden_origin") return "config";
  if (status === 503 || status >= 500) return "unavailable";
  return "request";
}

/** Reads an error response of the bridge (JSON `{error:{code,message}}`, or anything else). */
export async function bridgeHttpError(response: Response, bridgeUrl: string): Promise<SynapseError> {
  const text = await response.text().catch(() => "");
  let code = `http_${response.status}`;
  let message = `The bridge at ${bridgeUrl} answered HTTP ${response.status}.`;
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      code = parsed.data.error.code;
      message = parsed.data.error.message;
    }
  } catch {
    // not JSON: keep the generic message
  }
  if (response.status === 401) {
    return new SynapseError(kindFor(response.status, code), `The bridge refused the token: ${message} ${TOKEN_HINT}`, { status: 401, pluginMessage: `The bridge refused the token: ${message} ${PLUGIN_TOKEN_HINT}` });
  }
  return new SynapseError(kindFor(response.status, code), message, { status: response.status });
}

export function unreachable(bridgeUrl: string, cause: unknown): SynapseError {
  return new SynapseError(
    "transport",
    `Nothing answers at ${bridgeUrl}; start the bridge with "synapse bridge --vault <your vault>" and check the URL in settings.`,
    { cause },
  );
}

/** A loopback http URL without credentials; the bridge answers nothing else. */
export function checkBridgeUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SynapseError("config", `The bridge URL "${raw}" is not a URL; use the one the bridge printed, such as http://127.0.0.1:8765.`);
  }
  if (url.username || url.password) throw new SynapseError("config", "The bridge URL must not contain a user name or password.");
  if (url.protocol !== "http:" || (url.hostname !== "127.0.0.1" && url.hostname !== "localhost")) {
    throw new SynapseError("config", `The bridge only listens on this machine; use http://127.0.0.1:<port>, not ${url.origin}.`);
  }
  return url;
}

export function endpoint(base: URL, path: string): string {
  return `${base.origin}${path}`;
}
