import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findFix, fixId } from "../../src/lint/fix-id";
import type { Finding, Fix } from "../../src/lint/types";

const finding = (fix: Fix, page = "wiki/concepts/My page.md"): Finding => ({ check: "dangling-link", severity: "warning", page, message: "Links to [[Fog]], which does not exist.", fixes: [fix] });
// A stub's fields and a retarget's: the kinds whose params are open strings.
const stub = fc.record({ title: fc.string({ maxLength: 12 }), folder: fc.string({ maxLength: 12 }) });
const retarget = fc.record({ from: fc.string({ maxLength: 12 }), to: fc.string({ maxLength: 12 }) });

describe("a fix's id", () => {
  it("does not depend on the order the fix's fields were set in", () => {
    fc.assert(
      fc.property(stub, (p) => {
        const a: Fix = { kind: "create-stub", label: "Create a stub", safe: true, params: p };
        const reversed = Object.fromEntries(Object.entries(p).reverse()) as typeof p;
        const b = { params: reversed, safe: true, label: "Create a stub", kind: "create-stub" } as Fix;
        expect(fixId(finding(a), a)).toBe(fixId(finding(b), b));
      }),
    );
  });

  it("differs when the fix or its finding differs, and finds the fix it names", () => {
    fc.assert(
      fc.property(retarget, retarget, (p, q) => {
        fc.pre(JSON.stringify(Object.entries(p).sort()) !== JSON.stringify(Object.entries(q).sort()));
        const a: Fix = { kind: "retarget-link", label: "Point it elsewhere", safe: true, params: p };
        const b: Fix = { ...a, params: q };
        expect(fixId(finding(a), a)).not.toBe(fixId(finding(b), b));
        expect(fixId(finding(a), a)).not.toBe(fixId(finding(a, "wiki/other.md"), a));
        const all = [finding(a), finding(b)];
        expect(findFix(all, fixId(finding(b), b))?.fix).toBe(b);
      }),
    );
    expect(findFix([], "create-stub-0000000000000000")).toBeNull();
  });
});
