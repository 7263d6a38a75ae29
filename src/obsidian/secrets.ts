/**
 * Secrets from Obsidian's secret storage. Settings keep only a secret's name (chosen with the
 * SecretComponent); the value is read here, when a client is built, and never stored anywhere
 * else: not in settings, not in `data.json`, not in logs.
 */
import type { SecretStorage } from "obsidian";
import type { SecretRole, SecretSource } from "../providers/environment";

export class ObsidianSecrets implements SecretSource {
  constructor(private readonly storage: SecretStorage) {}

  /** The role only matters to the CLI (environment variables); in Obsidian the name says it all. */
  get(_role: SecretRole, name: string): string | null {
    const id = name.trim();
    if (id === "") return null;
    const value = this.storage.getSecret(id);
    return value === null || value === "" ? null : value;
  }
}
