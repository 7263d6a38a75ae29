/**
 * The time slicer (core/time-slice.ts) that work on Obsidian's main thread yields through: before
 * each step it yields when the step, judged by the one before it, would take the slice past its
 * budget. Tested on a fake clock on which each step costs a known time, never by timing the machine.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSliceBudget, DEFAULT_SLICE_MS, MAX_SLICE_MS, TimeSlicer } from "../../src/core/time-slice";

/** Runs steps of the given costs through a slicer on a fake clock; the slices' lengths, as closed by each yield. */
async function slicesOf(costs: readonly number[], budgetMs?: number) {
  let clock = 0;
  const slices: number[] = [];
  let sliceStart = 0;
  const slicer = new TimeSlicer({
    now: () => clock,
    yieldNow: () => {
      slices.push(clock - sliceStart);
      sliceStart = clock;
      return Promise.resolve();
    },
    ...(budgetMs !== undefined ? { budgetMs } : {}),
  });
  for (const cost of costs) {
    await slicer.checkpoint();
    clock += cost;
  }
  slices.push(clock - sliceStart);
  return { slices, yields: slicer.yields };
}

describe("the time slicer", () => {
  it("yields whenever the slice's budget is used, however few steps that is", async () => {
    const { slices } = await slicesOf(Array.from({ length: 12 }, () => 8), 20);
    // Two 8 ms steps fit in 20 ms; a third would not.
    expect(slices).toEqual([16, 16, 16, 16, 16, 16]);
  });

  it("keeps every slice within MAX_SLICE_MS at the default budget, for any mix of steps of up to 20 ms", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }), async (costs) => {
        const { slices } = await slicesOf(costs);
        for (const slice of slices) expect(slice).toBeLessThanOrEqual(MAX_SLICE_MS);
      }),
      { numRuns: 200 },
    );
  });

  it("yields after every step when a single step takes longer than the whole budget", async () => {
    const { slices } = await slicesOf([30, 30, 30], DEFAULT_SLICE_MS);
    expect(slices).toEqual([30, 30, 30]);
  });

  it("does not yield at all while the steps are cheap", async () => {
    const { yields } = await slicesOf(Array.from({ length: 50 }, () => 0.1));
    expect(yields).toBe(0);
  });

  it("yields at once when forced, and says so", async () => {
    const slicer = new TimeSlicer({ now: () => 0 });
    expect(await slicer.checkpoint()).toBe(false);
    expect(await slicer.checkpoint(true)).toBe(true);
    expect(slicer.yields).toBe(1);
  });

  it("refuses a budget over 50 ms, or none, in one sentence", () => {
    expect(() => checkSliceBudget(51)).toThrow("The time slice must be more than 0 and at most 50 ms (got 51).");
    expect(() => new TimeSlicer({ budgetMs: 0 })).toThrow(/at most 50 ms/);
    expect(() => new TimeSlicer({ budgetMs: Number.NaN })).toThrow(/at most 50 ms/);
  });
});
