/**
 * The plugin's settings in memory and in `data.json`. Loading goes through `loadSettings`
 * (versioned migration, per-field repair); every change is validated with the zod schema before it
 * is kept, and what is saved is the schema's output, so unknown keys (and anything secret someone
 * might add by mistake) never reach `data.json`. Saves are serialised in call order.
 */
import { describeSettingIssue } from "../settings/setting-names";
import { loadSettings } from "../settings/load";
import { SETTINGS_VERSION, SettingsSchema, type Settings } from "../settings/schema";

export interface SettingsPersistence {
  load(): Promise<unknown>;
  save(data: Settings): Promise<void>;
}

export type UpdateResult = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

export class SettingsStore {
  private current: Settings;
  private warnings: readonly string[] = [];
  /** data.json came from a newer Synapse: work from defaults in memory, never overwrite it. */
  private readOnly = false;
  private saving: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(settings: Settings) => void>();

  private constructor(
    private readonly persistence: SettingsPersistence,
    initial: Settings,
  ) {
    this.current = initial;
  }

  static async open(persistence: SettingsPersistence): Promise<SettingsStore> {
    const store = new SettingsStore(persistence, SettingsSchema.parse({}));
    await store.reload();
    return store;
  }

  /** The settings in force. Treat as read-only; change them with `update`. */
  get settings(): Settings {
    return this.current;
  }

  /** One sentence per field that was reset when the file was last read. */
  get loadWarnings(): readonly string[] {
    return this.warnings;
  }

  get isReadOnly(): boolean {
    return this.readOnly;
  }

  /** Reads data.json again (at start, and when sync changes it on disk). */
  async reload(): Promise<void> {
    const stored = await this.persistence.load();
    const loaded = loadSettings(stored);
    this.readOnly = isNewer(stored);
    this.current = loaded.settings;
    this.warnings = loaded.warnings;
    this.notify();
    if (loaded.changed && !this.readOnly) await this.persist();
  }

  /**
   * Applies a change to a copy, validates the result and keeps it only if it is valid.
   * Resolves once the change is saved.
   */
  async update(change: (draft: Settings) => void): Promise<UpdateResult> {
    const draft = structuredClone(this.current);
    change(draft);
    const parsed = SettingsSchema.safeParse(draft);
    if (!parsed.success) {
      return { ok: false, problems: parsed.error.issues.map(describeSettingIssue) };
    }
    this.current = parsed.data;
    this.notify();
    if (!this.readOnly) await this.persist();
    return { ok: true };
  }

  onChange(listener: (settings: Settings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private persist(): Promise<void> {
    const snapshot = SettingsSchema.parse(structuredClone(this.current));
    this.saving = this.saving.catch(() => undefined).then(() => this.persistence.save(snapshot));
    return this.saving;
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.current);
  }
}

function isNewer(stored: unknown): boolean {
  if (typeof stored !== "object" || stored === null) return false;
  const version = (stored as { version?: unknown }).version;
  return typeof version === "number" && version > SETTINGS_VERSION;
}
