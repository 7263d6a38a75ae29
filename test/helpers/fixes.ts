/** Reading lint fixes in tests: a fix's fields exist only for its kind. */
import type { Fix } from "../../src/lint/types";

/** The page a merge fix removes; "" for a fix of another kind (or none). */
export function removedBy(fix: Fix | undefined): string {
  return fix?.kind === "merge-duplicates" ? fix.params.remove : "";
}
