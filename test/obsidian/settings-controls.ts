/**
 * Finds the controls a settings tab rendered, by section heading and row name, so a test can
 * read and change them as a user would. Components are collected as the mocks create them; the
 * row and section come from the DOM the tab built.
 */
import {
  ButtonComponent,
  DropdownComponent,
  ExtraButtonComponent,
  SecretComponent,
  TextAreaComponent,
  TextComponent,
  ToggleComponent,
} from "obsidian-test-mocks/obsidian";
import { vi } from "vitest";

type Kind = "text" | "textarea" | "dropdown" | "toggle" | "button" | "extra" | "secret";

interface Found {
  kind: Kind;
  el: HTMLElement;
  component: unknown;
}

/** What a secret picker does when the user picks a secret: calls the registered callback. */
export interface SecretPicker {
  pick(name: string): void;
}

/** Create one per test: it installs spies on the component classes (restored by vi.restoreAllMocks). */
export class ControlRecorder {
  private readonly found: Found[] = [];
  private readonly secretCallbacks = new Map<unknown, (value: string) => unknown>();

  constructor() {
    const record = <T>(kind: Kind, el: (c: T) => HTMLElement) => (c: T) => {
      this.found.push({ kind, el: el(c), component: c });
      return c;
    };
    this.wrap(TextComponent, "text", (c: TextComponent) => c.inputEl, record);
    this.wrap(TextAreaComponent, "textarea", (c: TextAreaComponent) => c.inputEl, record);
    this.wrap(DropdownComponent, "dropdown", (c: DropdownComponent) => c.selectEl, record);
    this.wrap(ToggleComponent, "toggle", (c: ToggleComponent) => c.toggleEl, record);
    this.wrap(ButtonComponent, "button", (c: ButtonComponent) => c.buttonEl, record);
    this.wrap(ExtraButtonComponent, "extra", (c: ExtraButtonComponent) => c.extraSettingsEl, record);
    // The secret component has no create__ and no element of its own: note where it was built.
    const found = this.found;
    const callbacks = this.secretCallbacks;
    vi.spyOn(SecretComponent.prototype, "constructor2__").mockImplementation(function (this: SecretComponent, _app: unknown, containerEl: HTMLElement) {
      found.push({ kind: "secret", el: containerEl.createDiv(), component: this });
    });
    vi.spyOn(SecretComponent.prototype, "onChange").mockImplementation(function (this: SecretComponent, callback: (value: string) => unknown) {
      callbacks.set(this, callback);
      return this;
    });
  }

  private wrap<T>(cls: { create__: (el: HTMLElement) => T }, kind: Kind, el: (c: T) => HTMLElement, record: (kind: Kind, el: (c: T) => HTMLElement) => (c: T) => T): void {
    const original = cls.create__.bind(cls);
    vi.spyOn(cls, "create__").mockImplementation((containerEl: HTMLElement) => record(kind, el)(original(containerEl)));
  }

  private scopeEl: HTMLElement | null = null;

  /** Only controls inside this element that are not hidden count (a re-render leaves the old ones detached). */
  scope(el: HTMLElement): void {
    this.scopeEl = el;
  }

  private shown(): Found[] {
    const root = this.scopeEl;
    if (!root) return this.found;
    return this.found.filter((f) => {
      if (!root.contains(f.el)) return false;
      for (let el: HTMLElement | null = f.el; el && el !== root; el = el.parentElement) if (el.style.display === "none") return false;
      return true;
    });
  }

  /** "Section › Row" for every row that has a control, in order. */
  rows(): string[] {
    return [...new Set(this.shown().map((f) => `${sectionOf(f.el)} › ${rowOf(f.el)}`))];
  }

  private find<T>(kind: Kind, section: string, row: string): T {
    const match = this.shown().filter((f) => f.kind === kind && sectionOf(f.el) === section && rowOf(f.el) === row);
    if (match.length !== 1) throw new Error(`Expected one ${kind} at ${section} › ${row}, found ${match.length}; rows: ${this.rows().join(" | ")}`);
    return (match[0] as Found).component as T;
  }

  text(section: string, row: string): TextComponent {
    return this.find("text", section, row);
  }
  textArea(section: string, row: string): TextAreaComponent {
    return this.find("textarea", section, row);
  }
  dropdown(section: string, row: string): DropdownComponent {
    return this.find("dropdown", section, row);
  }
  toggle(section: string, row: string): ToggleComponent {
    return this.find("toggle", section, row);
  }
  button(section: string, row: string): ButtonComponent {
    return this.find("button", section, row);
  }
  extraButton(section: string, row: string): ExtraButtonComponent {
    return this.find("extra", section, row);
  }
  secret(section: string, row: string): SecretPicker {
    const component = this.find<SecretComponent>("secret", section, row);
    return {
      pick: (name) => {
        const callback = this.secretCallbacks.get(component);
        if (!callback) throw new Error(`No onChange on the secret at ${section} › ${row}`);
        callback(name);
      },
    };
  }
  /** Forgets what was found so far (before the tab renders again). */
  reset(): void {
    this.found.length = 0;
  }

  /** The description element of the row a control's element sits in (problems and results show there). */
  descOf(controlEl: HTMLElement): HTMLElement {
    return settingOf(controlEl).children[1]?.children[1] as HTMLElement;
  }
}

/** The mocks build a row as settingEl > [controlEl, infoEl > [nameEl, descEl]]. */
function settingOf(el: HTMLElement): HTMLElement {
  return el.parentElement?.parentElement as HTMLElement;
}

function rowOf(el: HTMLElement): string {
  return settingOf(el).children[1]?.children[0]?.textContent ?? "";
}

/** The nearest heading row above (display()), or the group heading (declarative rendering). */
function sectionOf(el: HTMLElement): string {
  const setting = settingOf(el);
  for (let prev = setting.previousElementSibling; prev; prev = prev.previousElementSibling) {
    if (prev.classList.contains("setting-item-heading")) return prev.children[1]?.children[0]?.textContent ?? "";
  }
  const group = setting.parentElement?.parentElement;
  const header = group?.firstElementChild;
  return header && header !== setting.parentElement ? (header.textContent ?? "") : "";
}
