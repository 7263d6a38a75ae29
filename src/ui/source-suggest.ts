/** Picking a source note that is gone, for "Retract a deleted source": a palette-style modal. */
import { FuzzySuggestModal, type App } from "obsidian";

export class GoneSourceSuggestModal extends FuzzySuggestModal<string> {
  constructor(
    app: App,
    private readonly sources: readonly string[],
    private readonly onPick: (source: string) => void,
  ) {
    super(app);
    this.setPlaceholder("Choose a deleted or excluded source note to retract");
  }

  getItems(): string[] {
    return [...this.sources];
  }

  getItemText(source: string): string {
    return source;
  }

  onChooseItem(source: string): void {
    this.onPick(source);
  }
}
