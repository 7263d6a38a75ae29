/**
 * "Check wiki health" reports the pages that say the same thing in other words without the model
 * checks and without the vault's index: the same pairs as `synapse lint --json` on the same wiki
 * (test/e2e/cli-lint-duplicates.test.ts holds the CLI to the same list).
 */
import { WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LINT_VIEW_TYPE, type LintView } from "../../src/ui/lint-view";
import { SIMILAR_PAIRS, SIMILAR_WIKI } from "../lint/similar-wiki";
import { loadPlugin } from "./plugin-harness";
import { removedBy } from "../helpers/fixes";

afterEach(() => vi.restoreAllMocks());

async function openView(): Promise<LintView> {
  const harness = await loadPlugin({ files: SIMILAR_WIKI });
  const create = harness.registered.views__.get(LINT_VIEW_TYPE);
  if (!create) throw new Error("the view is not registered");
  const view = create(WorkspaceLeaf.create2__(harness.app).asOriginalType3__()) as unknown as LintView;
  await view.onOpen();
  return view;
}

describe("Check wiki health: duplicates by similarity", () => {
  it("reports exactly the planted pairs, as the CLI does, and shows them under Duplicates", async () => {
    const view = await openView();
    const report = await view.check(false);
    expect(report?.error).toBeNull();
    const pairs = (report?.findings ?? []).filter((f) => f.check === "duplicate" && f.message.includes("alike in their words")).map((f) => `${f.page} ← ${removedBy(f.fixes[0])}`).sort();
    expect(pairs).toEqual(SIMILAR_PAIRS);
    const group = view.contentEl.querySelector<HTMLElement>('.synapse-lint-group[data-check="duplicate"]');
    expect(group?.querySelector("h4")?.textContent).toBe("Duplicates (2)");
  });

  it("Cancel stops the exact checks too: the comparison of every page's words honours the run's signal", async () => {
    const view = await openView();
    const running = view.check(false);
    view.cancel();
    const report = await running;
    expect(report?.error).toEqual({ kind: "cancelled", message: "The run was cancelled." });
    expect(report?.findings).toEqual([]);
  });
});
