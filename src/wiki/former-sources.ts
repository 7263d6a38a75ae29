/**
 * A note that was moved or renamed is the same source under its new path, but the pages it wrote
 * still name its old path: in their section markers and in `sources`. Before revising or
 * retracting the note's part of a page, those old spellings are read as the note's own and
 * re-spelled with its new path, so the note keeps one section per page, never a stale one under
 * the old path beside a new one. A section the user edited stays theirs.
 */
import { frontmatterPaths } from "../core/markdown";
import { mergeSources, sourceKey } from "../core/sources";
import { contentHash } from "../core/content-hash";
import { isUnedited, type Segment } from "./provenance";

/** The keys (`sourceKey`) of a note's former paths, without its current one. */
export function formerKeys(source: string, former: readonly string[] = []): ReadonlySet<string> {
  const keys = new Set(former.map(sourceKey));
  keys.delete(sourceKey(source));
  return keys;
}

/** The segments with every section of a former path spelled with `source`; `changed` when any was. */
export function respellSections(segments: readonly Segment[], former: ReadonlySet<string>, source: string): { segments: Segment[]; changed: boolean } {
  let changed = false;
  const out = segments.map((s): Segment => {
    if (s.kind !== "section" || !former.has(sourceKey(s.source))) return s;
    changed = true;
    // Whether it is unedited is judged under the path it was written for (see isUnedited); an
    // unedited section stays so under the new one.
    return { ...s, source, hash: isUnedited(s) ? contentHash(s.content) : s.hash };
  });
  return { segments: out, changed };
}

/** A frontmatter `sources` value with the former paths replaced by `source` (once), else as it was. */
export function respellSources(sources: unknown, former: ReadonlySet<string>, source: string): unknown {
  const paths = frontmatterPaths(sources);
  if (!paths.some((p) => former.has(sourceKey(p)))) return sources;
  return mergeSources(paths.map((p) => (former.has(sourceKey(p)) ? source : p)));
}
