/**
 * The mocks' leaves record a view state but build no view, so a command that opens a view
 * (`leaf.setViewState({type})`, then `leaf.view`) finds none. This gives them Obsidian's behaviour:
 * setting a registered view type builds the view from the plugin's factory, puts it on the leaf,
 * loads it and calls its `onOpen`; the view it replaces is closed. A type nobody registered leaves
 * the leaf without a view, as Obsidian shows an empty one.
 */
import type { View as ViewOriginal, ViewCreator, ViewState } from "obsidian";
import { App, Plugin, WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import { vi } from "vitest";

/** What Obsidian calls on a view as it opens and closes it (protected to plugins). */
interface Lifecycle {
  onOpen(): Promise<void>;
  onClose(): Promise<void>;
}
const lifecycle = (view: ViewOriginal) => view as unknown as Lifecycle;

/**
 * The registered views of each loaded app's plugin, by the app's workspace: the leaves hold another
 * proxy of the app than the test, but the same workspace. A restart loads a second plugin into the
 * same app, and that one's views count.
 */
const registries = new WeakMap<object, Plugin>();

export function buildViewsOnSetViewState(app: App, registered: Plugin): void {
  registries.set(app.workspace, registered);
  // Taken off the prototype as it is (a plain function), to be called with each leaf as `this`.
  const original = Object.getOwnPropertyDescriptor(WorkspaceLeaf.prototype, "setViewState")?.value as (this: WorkspaceLeaf, state: ViewState, eState?: Record<string, unknown>) => Promise<void>;
  if (vi.isMockFunction(original)) return;
  vi.spyOn(WorkspaceLeaf.prototype, "setViewState").mockImplementation(async function (this: WorkspaceLeaf, state: ViewState, eState?: Record<string, unknown>) {
    const before = this.view?.getViewType();
    await original.call(this, state, eState);
    if (before === state.type) return;
    const create: ViewCreator | undefined = registries.get(this.app__.workspace)?.views__.get(state.type);
    const old = this.view;
    this.view = null;
    if (old) await lifecycle(old).onClose();
    if (!create) return;
    const view: ViewOriginal = create(this.asOriginalType3__());
    this.view = view;
    view.load();
    await lifecycle(view).onOpen();
  });
}
