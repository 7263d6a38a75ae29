/** Picking a folder: a palette-style modal (for "Ingest notes in folder…") and type-ahead for inputs. */
import { AbstractInputSuggest, FuzzySuggestModal, type App, type TFolder } from "obsidian";

function folderLabel(folder: TFolder): string {
  return folder.isRoot() ? "/" : folder.path;
}

export class FolderSuggestModal extends FuzzySuggestModal<TFolder> {
  constructor(
    app: App,
    private readonly onPick: (folder: TFolder) => void,
  ) {
    super(app);
    this.setPlaceholder("Choose a folder to ingest");
  }

  getItems(): TFolder[] {
    return this.app.vault.getAllFolders(true);
  }

  getItemText(folder: TFolder): string {
    return folderLabel(folder);
  }

  onChooseItem(folder: TFolder): void {
    this.onPick(folder);
  }
}

/** Folder type-ahead on a text input; `onPicked` receives the folder's path. */
export class FolderInputSuggest extends AbstractInputSuggest<TFolder> {
  constructor(
    app: App,
    private readonly input: HTMLInputElement,
    private readonly onPicked: (path: string) => void,
  ) {
    super(app, input);
  }

  protected getSuggestions(query: string): TFolder[] {
    const q = query.trim().toLowerCase();
    return this.app.vault
      .getAllFolders(false)
      .filter((folder) => folder.path.toLowerCase().includes(q))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  renderSuggestion(folder: TFolder, el: HTMLElement): void {
    el.setText(folderLabel(folder));
  }

  override selectSuggestion(folder: TFolder): void {
    this.setValue(folder.path);
    this.onPicked(folder.path);
    this.close();
  }
}
