/**
 * The screenshot run's setup: the Obsidian mocks' globals, and the mocks dressed in Obsidian's own
 * markup (class names, element order, Markdown rendering, tooltips) so the pictures show what
 * Obsidian would. Only the pictures use this; the tests keep the plain mocks.
 */
import { setup } from "obsidian-test-mocks/setup";
import { vi } from "vitest";
import { renderMarkdown } from "./markdown";

setup();

/** A prototype's method as the plain function it is, to call with each instance as `this`. */
function original<T, V>(prototype: object, name: string): (this: T, value: V) => T {
  // Read through the prototype chain: TextComponent inherits setValue from AbstractTextComponent.
  return (prototype as Record<string, unknown>)[name] as (this: T, value: V) => T;
}

vi.mock("obsidian", async () => {
  const mocks = await import("obsidian-test-mocks/obsidian");
  const { DropdownComponent, MarkdownRenderer, SecretComponent, Setting, TextAreaComponent, TextComponent, ToggleComponent } = mocks;

  Setting.prototype.constructor__ = function (this: InstanceType<typeof Setting>) {
    this.settingEl.addClass("setting-item");
    this.infoEl.addClass("setting-item-info");
    this.nameEl.addClass("setting-item-name");
    this.descEl.addClass("setting-item-description");
    this.controlEl.addClass("setting-item-control");
    // Obsidian puts the name and description before the control.
    this.settingEl.prepend(this.infoEl);
  };
  ToggleComponent.prototype.constructor3__ = function (this: InstanceType<typeof ToggleComponent>) {
    this.toggleEl.addClass("checkbox-container");
  };
  const setToggle = original<InstanceType<typeof ToggleComponent>, boolean>(ToggleComponent.prototype, "setValue");
  ToggleComponent.prototype.setValue = function (this: InstanceType<typeof ToggleComponent>, value: boolean) {
    this.toggleEl.toggleClass("is-enabled", value);
    return setToggle.call(this, value);
  };
  DropdownComponent.prototype.constructor3__ = function (this: InstanceType<typeof DropdownComponent>) {
    this.selectEl.addClass("dropdown");
  };
  const setText = original<InstanceType<typeof TextComponent>, string>(TextComponent.prototype, "setValue");
  TextComponent.prototype.setValue = function (this: InstanceType<typeof TextComponent>, value: string) {
    this.inputEl.setAttribute("value", value);
    return setText.call(this, value);
  };
  const setArea = original<InstanceType<typeof TextAreaComponent>, string>(TextAreaComponent.prototype, "setValue");
  TextAreaComponent.prototype.setValue = function (this: InstanceType<typeof TextAreaComponent>, value: string) {
    this.inputEl.textContent = value;
    return setArea.call(this, value);
  };
  // The mock draws nothing for a secret; Obsidian shows a picker naming the chosen secret.
  const pickers = new WeakMap<object, HTMLElement>();
  SecretComponent.prototype.constructor2__ = function (this: InstanceType<typeof SecretComponent>, _app: unknown, containerEl: HTMLElement) {
    pickers.set(this, containerEl.createDiv({ cls: "dropdown synapse-shot-secret", text: "Choose a secret…" }));
  };
  SecretComponent.prototype.setValue = function (this: InstanceType<typeof SecretComponent>, value: string) {
    const picker = pickers.get(this);
    if (picker && value !== "") picker.setText(value);
    return this;
  };
  MarkdownRenderer.render = (_app: unknown, markdown: string, el: HTMLElement) => {
    renderMarkdown(markdown, el);
    return Promise.resolve();
  };
  return {
    ...mocks,
    // Obsidian shows a tooltip from the element's label; the frame opens the one a surface names.
    setTooltip: (el: HTMLElement, tooltip: string) => el.setAttribute("aria-label", tooltip),
  };
});
