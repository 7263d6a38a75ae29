/** Review before writing: the example vault's first ingest (new pages), a re-ingest of an edited note (updates), and a new note whose subject matches an existing page. */
import { Modal } from "obsidian-test-mocks/obsidian";
import { ReviewModal } from "../../../src/ui/review-modal";
import type { ReviewPlan } from "../../../src/wiki/review";
import { exampleVault, ingest, rig } from "../rig";
import type { Rendered, Surface } from "../surface";

const NOTE = "Notes/Ada Lovelace.md";
const MATCHING_NOTE = "Notes/Difference engines.md";

/** The plans the plugin asked about: every note ingested under "review always", then one note edited and ingested again. */
async function plans(): Promise<ReviewPlan[]> {
  const seen: ReviewPlan[] = [];
  const r = await rig({ data: { version: 1, reviewMode: "always" } });
  const app = r.harness.app;
  const open = Object.getOwnPropertyDescriptor(Modal.prototype, "open")?.value as (this: Modal) => void;
  // Every review is answered "apply all" after it is recorded, so the runs go on as a user's would.
  Modal.prototype.open = function (this: Modal) {
    open.call(this);
    if (this instanceof ReviewModal) {
      const plan = (this as unknown as { plan: ReviewPlan }).plan;
      seen.push(plan);
      const apply = [...this.contentEl.querySelectorAll("button")].find((b) => b.classList.contains("mod-cta"));
      apply?.click();
    }
  };
  try {
    for (const path of Object.keys(exampleVault()).sort()) await ingest(r.harness, path);
    const file = app.vault.getFileByPath(NOTE);
    if (!file) throw new Error(`No ${NOTE}`);
    const text = await app.vault.read(file);
    // A section of its own: the note has a "Legacy" already, and a second one would rightly be listed twice in the outline.
    await app.vault.modify(file, `${text}\n## Rediscovery\n\nHer notes were republished in 1953 by B. V. Bowden, a century after her death, in *Faster than Thought*.\n`);
    await ingest(r.harness, NOTE);
    // A new note naming an existing page's subject differently: the page it would make is matched to that page.
    await app.vault.create(MATCHING_NOTE, "# Difference engines\n\nThe [[analytical engines]] of [[charles babbage]] were never finished; his Difference Engine No. 2 was built in 1991.\n");
    await ingest(r.harness, MATCHING_NOTE);
  } finally {
    Modal.prototype.open = open;
  }
  return seen;
}

let memo: Promise<ReviewPlan[]> | null = null;

async function show(pick: (plans: ReviewPlan[]) => ReviewPlan | undefined): Promise<Rendered> {
  memo ??= plans();
  const plan = pick(await memo);
  if (!plan) throw new Error("No such review plan");
  const r = await rig();
  const modal = new ReviewModal(r.harness.app.asOriginalType__(), plan, () => undefined);
  modal.onOpen();
  return { title: modal.titleEl.textContent ?? "", content: modal.contentEl };
}

export const surfaces: readonly Surface[] = [
  { name: "review-new-pages", frame: "modal", render: () => show((p) => p.find((plan) => plan.changes.every((c) => c.before === null))) },
  { name: "review-updates", frame: "modal", render: () => show((p) => p.filter((plan) => plan.notePath === NOTE).at(-1)) },
  { name: "review-match", frame: "modal", render: () => show((p) => p.find((plan) => plan.changes.some((c) => c.match !== undefined))) },
];
