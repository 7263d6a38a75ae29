/**
 * Reasoning models (Qwen3, DeepSeek-R1…) on servers that do not separate it write their reasoning
 * into the answer as a leading `<think>…</think>` block. A streamed answer is shown as it arrives,
 * so the block is held back piece by piece: text passes through once it can no longer be the start
 * of the block, and everything up to the closing tag is dropped. Only a block at the very start
 * (after white space) is reasoning; a `<think>` later in an answer is the answer's own text.
 */
const OPEN = "<think>";
const CLOSE = "</think>";

export class ThinkFilter {
  /** "after": the block closed; the white space that separated it from the answer is still dropped. */
  private state: "start" | "thinking" | "after" | "answer" = "start";
  private held = "";

  /** The part of `piece` that belongs to the answer (may be empty while a block is open or possible). */
  push(piece: string): string {
    if (this.state === "answer") return piece;
    if (this.state === "after") return this.afterBlock(piece);
    this.held += piece;
    if (this.state === "start") {
      const lead = this.held.trimStart();
      if (lead.length < OPEN.length && OPEN.startsWith(lead)) return "";
      if (!lead.startsWith(OPEN)) return this.release(this.held);
      this.state = "thinking";
      this.held = lead.slice(OPEN.length);
    }
    const close = this.held.indexOf(CLOSE);
    if (close < 0) {
      // Keep only what could still be the start of the closing tag.
      this.held = this.held.slice(Math.max(0, this.held.length - CLOSE.length + 1));
      return "";
    }
    const rest = this.held.slice(close + CLOSE.length);
    this.held = "";
    this.state = "after";
    return this.afterBlock(rest);
  }

  private afterBlock(piece: string): string {
    const text = piece.trimStart();
    if (text) this.state = "answer";
    return text;
  }

  /** What is still held when the stream ends: a possible but unfinished opening is the answer's. */
  end(): string {
    const rest = this.state === "start" ? this.held : "";
    this.held = "";
    return rest;
  }

  private release(text: string): string {
    this.state = "answer";
    this.held = "";
    return text;
  }
}
