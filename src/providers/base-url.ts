/**
 * Base URLs come from settings a user typed or pasted. Two things matter before any request:
 * credentials must never ride inside a URL (they would end up in logs, error messages and
 * Obsidian's data.json), and `isLocal` must answer truthfully whether the host is this machine.
 */
import { SynapseError, type Surface } from "../core/errors";

/** The URL without user info, query or fragment: safe to show in messages and logs. */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}

/**
 * Parses a configured base URL. Rejects anything but http(s) and any URL carrying a user name or
 * password, naming the setting (as each surface knows it: the CLI also takes a flag) and never
 * echoing the credentials back.
 */
export function parseBaseUrl(raw: string, setting: Readonly<Record<Surface, string>>): URL {
  const refuse = (say: (name: string) => string, cause?: unknown) =>
    new SynapseError("config", say(setting.cli), { pluginMessage: say(setting.plugin), ...(cause !== undefined ? { cause } : {}) });
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    // The raw text may itself hold a secret, so it is not quoted.
    throw refuse((name) => `The ${name} is not a valid URL; enter it as http://host:port or https://host/path.`, cause);
  }
  if (url.username || url.password) {
    const safe = displayUrl(url);
    throw refuse((name) => `The ${name} contains a user name or password (${safe} with credentials); remove them from the URL and put the API key in the key setting instead.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refuse((name) => `The ${name} must start with http:// or https://.`);
  }
  return url;
}

const IPV4_LOOPBACK = /^127(?:\.\d{1,3}){3}$/;

/**
 * True only for names that always mean this machine: `localhost`, 127.0.0.0/8 and ::1 (also in
 * IPv4-mapped form). `0.0.0.0` and LAN addresses are not loopback: a note sent there may leave the
 * machine, and `isLocal` is a safety property, so doubt counts as remote.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost") return true;
  if (IPV4_LOOPBACK.test(host)) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const mapped = /^::ffff:(.+)$/.exec(host);
  if (mapped?.[1]) {
    if (IPV4_LOOPBACK.test(mapped[1])) return true;
    // WHATWG URL serialises ::ffff:127.0.0.1 as ::ffff:7f00:1.
    return /^7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(mapped[1]);
  }
  return false;
}

export function isLoopbackUrl(url: URL): boolean {
  return isLoopbackHost(url.hostname);
}
