/**
 * The agent's environment. The SDK's `env` option replaces the child's environment entirely, so
 * the bridge passes an allowlist: what the native binary needs to start and to authenticate, plus
 * proxies. The bridge token and everything else in the bridge's environment stay out.
 */
const PASS_THROUGH = [
  "PATH",
  "HOME",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "SystemRoot",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_CODE_MAX_RETRIES",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
] as const;

export function agentEnvironment(source: Readonly<Record<string, string | undefined>>, clientApp: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PASS_THROUGH) {
    const value = source[key];
    if (value !== undefined && value !== "") env[key] = value;
  }
  // No telemetry, update checks or other calls home: the agent talks to the Messages API only.
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = "1";
  env.DISABLE_AUTOUPDATER = "1";
  env.CLAUDE_AGENT_SDK_CLIENT_APP = clientApp;
  return env;
}

/** How the agent will authenticate, for the doctor; null when it has nothing to go on. */
export function authMethod(source: Readonly<Record<string, string | undefined>>): string | null {
  if (source.ANTHROPIC_API_KEY) return "ANTHROPIC_API_KEY";
  if (source.ANTHROPIC_AUTH_TOKEN) return "ANTHROPIC_AUTH_TOKEN";
  if (source.CLAUDE_CODE_OAUTH_TOKEN) return "CLAUDE_CODE_OAUTH_TOKEN";
  return null;
}
