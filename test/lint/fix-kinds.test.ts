/**
 * Fixes are a union on their kind: these lines are checked by the type checker (`npx tsc -p .`),
 * each `@ts-expect-error` failing the build if the mistake under it ever compiles again.
 */
import { describe, expect, it } from "vitest";
import { chosenOfKind, type ChosenFix } from "../../src/lint/fixes";
import type { Finding, Fix } from "../../src/lint/types";

const finding: Finding = { check: "contradiction", severity: "warning", page: "wiki/A.md", message: "", fixes: [] };

describe("lint fixes, one shape per kind", () => {
  it("cannot be made without the fields of its kind, nor with another kind's", () => {
    // @ts-expect-error a dismissal names the contradiction it settles
    const noId: Fix = { kind: "dismiss-contradiction", label: "Dismiss it", safe: false, params: {} };
    // @ts-expect-error a side is 1 or 2, nothing else
    const badSide: Fix = { kind: "resolve-contradiction", label: "Keep", safe: false, params: { id: "c-1", keep: "3" } };
    // @ts-expect-error a merge's fields are not a re-ingest's
    const wrongKind: Fix = { kind: "reingest", label: "Re-ingest", safe: true, params: { keep: "a.md", remove: "b.md" } };
    expect([noId, badSide, wrongKind].map((f) => f.kind)).toEqual(["dismiss-contradiction", "resolve-contradiction", "reingest"]);
  });

  it("cannot be read for a field before its kind is known; once it is, the field is there", () => {
    const fixes: Fix[] = [
      { kind: "dismiss-contradiction", label: "Dismiss it", safe: false, params: { id: "c-1" } },
      { kind: "rebuild-index", label: "Rebuild index.md", safe: true, params: {} },
    ];
    const unread = fixes.map((f): unknown => {
      // @ts-expect-error not every kind of fix has an id
      const id: unknown = f.params.id;
      return id;
    });
    expect(unread).toEqual(["c-1", undefined]);
    const ids = fixes.flatMap((f) => (f.kind === "dismiss-contradiction" ? [f.params.id] : []));
    expect(ids).toEqual(["c-1"]);
    const chosen: ChosenFix[] = fixes.map((fix) => ({ finding, fix }));
    expect(chosen.filter(chosenOfKind("dismiss-contradiction")).map((c) => c.fix.params.id)).toEqual(["c-1"]);
  });
});
