/**
 * The setting that says where a backend's server is, as each surface names it: Ollama calls it
 * "Host", the API backends "Base URL", and the CLI can also override it with --base-url. Messages
 * that tell the user to check the address name this setting, never an internal field.
 */
export interface ServerSetting {
  /** As a terminal user reads it: the plugin's setting (the CLI reads the same settings) or the flag. */
  readonly cli: string;
  /** As it is labelled in Obsidian's settings tab. */
  readonly plugin: string;
}

const setting = (name: string, section: string): ServerSetting => ({
  cli: `"${name}" under ${section} (or --base-url)`,
  plugin: `"${name}" under ${section}`,
});

export const OLLAMA_HOST_SETTING = setting("Host", "Local: Ollama");
export const ANTHROPIC_URL_SETTING = setting("Base URL", "API: Anthropic");
export const OPENAI_URL_SETTING = setting("Base URL", "API: OpenAI-compatible");
