/**
 * Loading settings from whatever `data.json` holds: migrate older versions step by step, then
 * parse; a field that does not parse falls back to its default and is reported, so one bad value
 * never costs the user the rest of their settings.
 */
import { describeResetSetting } from "./setting-names";
import { DEFAULT_SETTINGS, SETTINGS_VERSION, SettingsSchema, type Settings } from "./schema";

type Raw = Record<string, unknown>;

/** migrations[n] turns a version-n object into version n+1. */
const MIGRATIONS: Record<number, (raw: Raw) => Raw> = {
  // Version 0: the unversioned pre-release shape, with one `provider` for every operation and
  // `maxIterations` instead of `maxIter`.
  0: (raw) => {
    const { provider, maxIterations, ...rest } = raw;
    const next: Raw = { ...rest, version: 1 };
    if (maxIterations !== undefined && rest.maxIter === undefined) next.maxIter = maxIterations;
    if (typeof provider === "string" && rest.operations === undefined) {
      next.operations = { ingest: provider, query: provider, lint: provider };
    }
    return next;
  },
};

export interface LoadedSettings {
  readonly settings: Settings;
  /** One sentence per field that was reset to its default. */
  readonly warnings: readonly string[];
  /** True when the stored data should be rewritten (migrated or repaired). */
  readonly changed: boolean;
}

function isObject(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deleteAt(target: Raw, path: readonly PropertyKey[]): boolean {
  let node: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node) && !Array.isArray(node)) return false;
    node = (node as Raw)[key as string];
  }
  const last = path[path.length - 1];
  if (last === undefined || (!isObject(node) && !Array.isArray(node))) return false;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last as string];
  return true;
}

function comparePathsDescending(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return y - x;
    return String(y).localeCompare(String(x));
  }
  return b.length - a.length;
}

export function loadSettings(stored: unknown): LoadedSettings {
  if (stored === null || stored === undefined) return { settings: DEFAULT_SETTINGS, warnings: [], changed: false };
  if (!isObject(stored)) {
    return { settings: DEFAULT_SETTINGS, warnings: ["The settings file is not an object; using the defaults."], changed: true };
  }
  let raw: Raw = structuredClone(stored);
  let changed = false;
  let version = typeof raw.version === "number" ? raw.version : 0;
  if (version > SETTINGS_VERSION) {
    return {
      settings: DEFAULT_SETTINGS,
      warnings: [`The settings were written by a newer Synapse (version ${version}); using the defaults without saving over them.`],
      changed: false,
    };
  }
  while (version < SETTINGS_VERSION) {
    const migrate = MIGRATIONS[version];
    if (!migrate) break;
    raw = migrate(raw);
    version += 1;
    changed = true;
  }
  const warnings: string[] = [];
  // Each pass removes the fields zod rejected; their defaults take over. Bounded by the field count.
  for (let pass = 0; pass < 50; pass++) {
    const parsed = SettingsSchema.safeParse(raw);
    if (parsed.success) return { settings: parsed.data, warnings, changed: changed || warnings.length > 0 };
    let removed = false;
    // Deepest and last first, so removing one array entry never shifts another still to remove.
    const issues = [...parsed.error.issues].sort((a, b) => comparePathsDescending(a.path, b.path));
    for (const issue of issues) {
      if (issue.path.length > 0 && deleteAt(raw, issue.path)) {
        warnings.push(describeResetSetting(issue));
        removed = true;
      }
    }
    if (!removed) break;
  }
  return { settings: DEFAULT_SETTINGS, warnings: [...warnings, "The settings could not be repaired; using the defaults."], changed: true };
}
