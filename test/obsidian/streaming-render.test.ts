/**
 * The pacing of an answer rendered while it streams, on a hand-driven clock: the first piece at
 * once, a finished paragraph at once, everything else at most once per interval, renders never
 * overlapping, and the final answer rendered last whatever was pending.
 */
import { describe, expect, it } from "vitest";
import { StreamingRender, type RenderClock } from "../../src/ui/streaming-render";

class ManualClock implements RenderClock {
  time = 0;
  private timers: { at: number; run: () => void }[] = [];
  now(): number {
    return this.time;
  }
  later(run: () => void, ms: number): () => void {
    const timer = { at: this.time + ms, run };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((t) => t !== timer));
  }
  get pending(): number {
    return this.timers.length;
  }
  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const t of due) t.run();
  }
}

/** A paint that resolves when the test says so, so overlapping renders can be seen. */
function gatedPaint() {
  const painted: string[] = [];
  const gates: (() => void)[] = [];
  const paint = (markdown: string) =>
    new Promise<void>((resolve) => {
      painted.push(markdown);
      gates.push(resolve);
    });
  /** Lets every render asked for so far (and any it queues) complete. */
  const settle = async () => {
    do {
      gates.shift()?.();
      // Let the render's completion, and a render it queued, reach the paint.
      for (let i = 0; i < 20; i++) await Promise.resolve();
    } while (gates.length > 0);
  };
  return { painted, paint, settle };
}

describe("rendering an answer while it streams", () => {
  it("renders the first piece at once, then at most once per interval, with the text as it is then", async () => {
    const clock = new ManualClock();
    const { painted, paint, settle } = gatedPaint();
    const render = new StreamingRender(paint, clock, 100);
    render.push("Ada ");
    expect(painted).toEqual(["Ada "]);
    await settle();
    clock.advance(10);
    render.push("Lovelace ");
    clock.advance(10);
    render.push("wrote ");
    expect(painted).toEqual(["Ada "]);
    expect(clock.pending).toBe(1);
    clock.advance(80);
    expect(painted).toEqual(["Ada ", "Ada Lovelace wrote "]);
    await settle();
    const finished = render.finish("Ada Lovelace wrote it.");
    await settle();
    await finished;
    expect(painted.at(-1)).toBe("Ada Lovelace wrote it.");
    expect(clock.pending).toBe(0);
  });

  it("renders a finished paragraph at once, even inside the interval", async () => {
    const clock = new ManualClock();
    const { painted, paint, settle } = gatedPaint();
    const render = new StreamingRender(paint, clock, 100);
    render.push("One");
    await settle();
    clock.advance(1);
    render.push(" paragraph.\n");
    expect(painted).toEqual(["One"]);
    render.push("\nTwo");
    expect(painted).toEqual(["One", "One paragraph.\n\nTwo"]);
  });

  it("never runs two renders at once: a render asked for meanwhile runs right after, once, with the latest text", async () => {
    const clock = new ManualClock();
    const { painted, paint, settle } = gatedPaint();
    const render = new StreamingRender(paint, clock, 100);
    render.push("A.\n\n");
    render.push("B.\n\n");
    render.push("C.\n\n");
    expect(painted).toEqual(["A.\n\n"]);
    await settle();
    expect(painted).toEqual(["A.\n\n", "A.\n\nB.\n\nC.\n\n"]);
  });

  it("renders the final answer after the render under way, and nothing after it", async () => {
    const clock = new ManualClock();
    const { painted, paint, settle } = gatedPaint();
    const render = new StreamingRender(paint, clock, 100);
    render.push("Half");
    clock.advance(1);
    render.push(" an answer");
    const finished = render.finish("Half an answer, whole.");
    await settle();
    await finished;
    expect(painted).toEqual(["Half", "Half an answer, whole."]);
    render.push(" late piece");
    clock.advance(1000);
    expect(painted).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });

  it("calls off a pending render when stopped (the view closed)", async () => {
    const clock = new ManualClock();
    const { painted, paint, settle } = gatedPaint();
    const render = new StreamingRender(paint, clock, 100);
    render.push("One");
    await settle();
    render.push(" two");
    expect(clock.pending).toBe(1);
    render.stop();
    expect(clock.pending).toBe(0);
    clock.advance(1000);
    expect(painted).toEqual(["One"]);
  });
});
