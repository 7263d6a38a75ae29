/**
 * One finding of "Check wiki health": its severity, the page it is about (a link that behaves like
 * Obsidian's own), what is wrong, and its fixes. A safe fix carries a shield icon and says in its
 * tooltip that "Fix all safe" applies it; its label stays the fix's own words.
 */
import { setIcon } from "obsidian";
import type { Finding, Fix, Severity } from "../lint/types";
import { renderPageLink, type PageLinkHost } from "./page-link";

export const SEVERITY_LABELS: Record<Severity, string> = {
  error: "Error",
  warning: "Warning",
  info: "Note",
};

export interface FindingActions {
  readonly link: PageLinkHost;
  /** Whether the page exists: a finding about a missing page (index.md) shows it as text. */
  readonly exists: (path: string) => boolean;
  readonly applyFix: (finding: Finding, fix: Fix) => void;
}

const SAFE_TOOLTIP = "Safe: changes none of your own text, so Fix all safe applies it";

export function renderFinding(list: HTMLElement, finding: Finding, actions: FindingActions): void {
  const item = list.createEl("li", { cls: "synapse-lint-finding", attr: { "data-severity": finding.severity } });
  const head = item.createDiv({ cls: "synapse-lint-finding-head" });
  head.createSpan({ cls: `synapse-lint-severity mod-${finding.severity}`, text: SEVERITY_LABELS[finding.severity] });
  renderPageLink(head, finding.page, actions.exists(finding.page), actions.link);
  item.createDiv({ cls: "synapse-lint-message", text: finding.message });
  if (finding.fixes.length === 0) return;
  const fixes = item.createDiv({ cls: "synapse-lint-fixes" });
  for (const fix of finding.fixes) {
    const button = fixes.createEl("button", { cls: fix.safe ? "synapse-lint-fix is-safe" : "synapse-lint-fix" });
    const tooltip = [fix.label, ...(fix.detail ? [fix.detail] : []), ...(fix.safe ? [SAFE_TOOLTIP] : [])];
    if (fix.safe) setIcon(button.createSpan({ cls: "synapse-lint-fix-icon" }), "shield-check");
    // The button keeps the fix's own short words; what else it does is in its tooltip.
    if (tooltip.length > 1) button.setAttr("aria-label", `${tooltip.join(". ")}.`);
    button.createSpan({ text: fix.label });
    button.addEventListener("click", () => actions.applyFix(finding, fix));
  }
}
