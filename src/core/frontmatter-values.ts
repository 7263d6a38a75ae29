/**
 * Frontmatter values read as the lists a person meant (`tags`, `aliases`, `sources`), from what a
 * YAML parser made of them. No parser here: the search index's worker reads these lists from values
 * the main thread parsed, and must not bundle one.
 */

/** A YAML scalar a person wrote in a list (`tags: [2024, history]`): strings, and numbers as written. */
function scalarText(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** Frontmatter `tags`, whether a list or a comma/space separated string; numbers are tags too. */
export function frontmatterList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(scalarText).filter((v): v is string => v !== null);
  if (typeof value === "number") return [String(value)];
  if (typeof value === "string") return value.split(/[,\s]+/).map((v) => v.replace(/^#/, "").trim()).filter(Boolean);
  return [];
}

/**
 * A link written without quotes (`- [[notes/a]]`, `sources: [[notes/a]]`) is YAML for a list inside a
 * list; a person meant the link, so a nested list around one string reads back as `[[that string]]`
 * instead of vanishing from the sources (and from the privacy perimeter that reads them).
 */
function unquotedLink(item: unknown): unknown {
  if (!Array.isArray(item)) return item;
  let inner: unknown = item;
  while (Array.isArray(inner) && inner.length === 1) inner = inner[0];
  return typeof inner === "string" ? `[[${inner.trim()}]]` : item;
}

/** Frontmatter paths (`sources`): a list, or one string; paths may hold spaces, so only commas split. */
export function frontmatterPaths(value: unknown): string[] {
  if (typeof value === "string") return value.split(",").map((v) => v.trim()).filter(Boolean);
  if (Array.isArray(value)) return frontmatterList(value.map(unquotedLink));
  return frontmatterList(value);
}
