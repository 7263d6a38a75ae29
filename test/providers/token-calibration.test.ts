import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_RATIO, calibrationFor } from "../../src/providers/token-calibration";

let next = 0;
/** A server and model of its own for each test: the calibration lasts the session. */
const fresh = () => calibrationFor("ollama", `http://127.0.0.1:${++next}`, "qwen2.5:7b");

describe("token calibration", () => {
  it("starts at 1 and learns the ratio of counted to estimated tokens from the last reply", () => {
    const calibration = fresh();
    expect(calibration.ratio).toBe(1);
    calibration.observe(1000, 1600);
    expect(calibration.ratio).toBe(1.6);
    calibration.observe(1000, 1200);
    expect(calibration.ratio).toBe(1.2);
  });

  it("is shared by every provider for the same backend, server and model, and by no other", () => {
    calibrationFor("openai", "http://127.0.0.1:9/v1", "m").observe(100, 200);
    expect(calibrationFor("openai", "http://127.0.0.1:9/v1", "m").ratio).toBe(2);
    expect(calibrationFor("openai", "http://127.0.0.1:9/v1", "other").ratio).toBe(1);
    expect(calibrationFor("ollama", "http://127.0.0.1:9/v1", "m").ratio).toBe(1);
  });

  it("stays within [1, MAX_RATIO] whatever a server reports, and ignores counts that say nothing", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 100_000 }), fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: -10, max: 10_000_000 })), (estimate, counted) => {
        const calibration = fresh();
        calibration.observe(estimate, counted);
        expect(calibration.ratio).toBeGreaterThanOrEqual(1);
        expect(calibration.ratio).toBeLessThanOrEqual(MAX_RATIO);
      }),
    );
    const calibration = fresh();
    calibration.observe(1000, null);
    calibration.observe(0, 500);
    expect(calibration.ratio).toBe(1);
  });

  it("a floor from a prompt that filled its window never lowers what was learned", () => {
    const calibration = fresh();
    calibration.observe(1000, 1800);
    calibration.observeAtLeast(1000, 1300);
    expect(calibration.ratio).toBe(1.8);
    calibration.observeAtLeast(1000, 2000);
    expect(calibration.ratio).toBe(2);
  });
});
