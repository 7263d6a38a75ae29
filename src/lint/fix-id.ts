/**
 * A fix's id as lint reports it (`synapse lint --json`, the MCP `lint` tool): the same fix of the
 * same finding has the same id on every run, so an agent can name one and Synapse finds it again by
 * running the checks itself, never taking the agent's word for what the fix does. The id is a hash
 * of the finding's check and page and of the whole fix; only the fix's kind is read by name.
 */
import type { ChosenFix } from "./fixes";
import type { Finding, Fix } from "./types";

/** JSON with its object keys sorted, so the hash does not depend on the order fields were set in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** FNV-1a, 32 bits, from a given offset: two of them make an id that does not collide in one wiki. */
function fnv1a(text: string, offset: number): string {
  let hash = offset >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** "retarget-link-3fa2b1c90d4e5f61": the fix's kind, then the hash. */
export function fixId(finding: Finding, fix: Fix): string {
  const text = canonical({ check: finding.check, page: finding.page, fix });
  return `${fix.kind}-${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x050c5d1f)}`;
}

/** The fix with this id among the findings, or null when none has it (any more). */
export function findFix(findings: readonly Finding[], id: string): ChosenFix | null {
  for (const finding of findings) {
    for (const fix of finding.fixes) if (fixId(finding, fix) === id) return { finding, fix };
  }
  return null;
}
