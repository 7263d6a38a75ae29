/** Secrets for the CLI come from the environment, by role; settings hold no secrets. */
import type { SecretRole, SecretSource } from "../providers/environment";

const VARIABLES: Readonly<Record<SecretRole, string>> = {
  "anthropic-api-key": "ANTHROPIC_API_KEY",
  "openai-api-key": "OPENAI_API_KEY",
  "bridge-token": "SYNAPSE_BRIDGE_TOKEN",
};

export function envSecrets(env: NodeJS.ProcessEnv): SecretSource {
  return {
    get(role: SecretRole): string | null {
      const value = env[VARIABLES[role]];
      return value && value.trim() ? value.trim() : null;
    },
  };
}

export function secretVariable(role: SecretRole): string {
  return VARIABLES[role];
}
