/**
 * An answer rendered as Markdown while it streams in. Rendering on every piece would re-render a
 * growing document dozens of times a second; never rendering until the end shows raw `[[links]]`
 * and `**stars**` for the whole answer. So: the first piece renders at once (the first token shows
 * as soon as it arrives), a finished paragraph renders at once, and anything else waits for the
 * next slot of `intervalMs`. Renders never overlap: one asked for while another runs is done right
 * after it, with the text as it is then. `finish` renders the final answer last, whatever was
 * pending. No Obsidian import: the view hands in how to paint, so the pacing is testable alone.
 */

/** When to do something later, and how to call it off; the view passes window timers. */
export interface RenderClock {
  now(): number;
  later(run: () => void, ms: number): () => void;
}

export const windowClock: RenderClock = {
  now: () => Date.now(),
  later: (run, ms) => {
    const id = window.setTimeout(run, ms);
    return () => window.clearTimeout(id);
  },
};

/** About ten renders a second: fluid to read, cheap for Obsidian's renderer. */
export const STREAM_RENDER_INTERVAL_MS = 100;

export class StreamingRender {
  private text = "";
  /** Length of the text the last render started with. */
  private paintedLength = 0;
  private lastPaintAt = Number.NEGATIVE_INFINITY;
  private running: Promise<void> | null = null;
  private again = false;
  private cancelLater: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly paint: (markdown: string) => Promise<void>,
    private readonly clock: RenderClock = windowClock,
    private readonly intervalMs: number = STREAM_RENDER_INTERVAL_MS,
  ) {}

  /** One more piece of the answer. */
  push(piece: string): void {
    if (this.closed || piece === "") return;
    this.text += piece;
    // A blank line in what arrived since the last render: a paragraph (or a list, a heading) is complete.
    const paragraphDone = this.text.slice(Math.max(0, this.paintedLength - 1)).includes("\n\n");
    const due = this.clock.now() - this.lastPaintAt >= this.intervalMs;
    if (due || paragraphDone) this.renderNow();
    else this.cancelLater ??= this.clock.later(() => {
      this.cancelLater = null;
      this.renderNow();
    }, Math.max(0, this.lastPaintAt + this.intervalMs - this.clock.now()));
  }

  /** Renders `markdown` (the whole answer, as the run reported it) after any render under way; nothing renders after it. */
  async finish(markdown: string): Promise<void> {
    this.stop();
    await this.settled();
    await this.paint(markdown);
  }

  /** Stops rendering (the view closed): a pending render is called off. */
  stop(): void {
    this.closed = true;
    this.again = false;
    this.cancelLater?.();
    this.cancelLater = null;
  }

  private renderNow(): void {
    this.cancelLater?.();
    this.cancelLater = null;
    if (this.running) {
      this.again = true;
      return;
    }
    const text = this.text;
    this.paintedLength = text.length;
    this.lastPaintAt = this.clock.now();
    // A failed intermediate render is not worth reporting: the final one shows the whole answer.
    this.running = this.paint(text)
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        if (this.again && !this.closed) {
          this.again = false;
          this.renderNow();
        }
      });
  }

  private async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}
