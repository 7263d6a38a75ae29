import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findFix, fixId } from "../../src/lint/fix-id";
import type { Finding, Fix } from "../../src/lint/types";

const finding = (fix: Fix, page = "wiki/concepts/My page.md"): Finding => ({ check: "dangling-link", severity: "warning", page, message: "Links to [[Fog]], which does not exist.", fixes: [fix] });
const params = fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }), { maxKeys: 4 });

describe("a fix's id", () => {
  it("does not depend on the order the fix's fields were set in", () => {
    fc.assert(
      fc.property(params, (p) => {
        const a: Fix = { kind: "create-stub", label: "Create a stub", safe: true, params: p };
        const reversed = Object.fromEntries(Object.entries(p).reverse());
        const b = { params: reversed, safe: true, label: "Create a stub", kind: "create-stub" } as Fix;
        expect(fixId(finding(a), a)).toBe(fixId(finding(b), b));
      }),
    );
  });

  it("differs when the fix or its finding differs, and finds the fix it names", () => {
    fc.assert(
      fc.property(params, params, (p, q) => {
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
