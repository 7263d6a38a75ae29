/**
 * A backend as people know it, from the name its capabilities declare: "ollama" is an id, and a
 * sentence or a summary line that shows it reads as a typo. Wording only — nothing branches on it.
 * A name not listed (a test double, a future backend) is shown as it is.
 */
const NAMES: Readonly<Record<string, string>> = {
  offline: "Offline",
  ollama: "Ollama",
  anthropic: "Anthropic",
  openai: "OpenAI-compatible",
  "claude-agent": "Claude agent",
};

export function backendName(name: string): string {
  return NAMES[name] ?? name;
}
