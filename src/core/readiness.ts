/**
 * The readiness report: what "Test connection" in the settings tab and `synapse models` show.
 * Shared by the plugin and the CLI, so it lives below both.
 */
/** The readiness check, in words a user can act on. */
export interface ReadinessReport {
  readonly provider: string;
  readonly ok: boolean;
  readonly reachable: boolean;
  readonly version: string | null;
  /** Installed or offered models, with what each reports it can do. */
  readonly models: readonly { readonly name: string; readonly capabilities: readonly string[] }[];
  /** Whether the configured model is among them (null when the server cannot say). */
  readonly modelPresent: boolean | null;
  /** What works, one sentence each. */
  readonly details: readonly string[];
  /** What to fix, one sentence each; empty when ok. */
  readonly problems: readonly string[];
  /** True when nothing was asked because the backend is not set up yet (no key, no token, no usable address). */
  readonly notSetUp?: boolean;
  /** The largest window, in tokens, requests will run in, when the check learned it. */
  readonly contextWindow?: number | null;
}
