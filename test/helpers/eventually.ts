/**
 * Waiting in tests for something that is sure to happen (a save, a status line, a reply). The
 * bound is long on purpose: a loaded machine must never fail a test by being slow, and only a real
 * hang should ever reach it. Nothing here races real work against a short timer; that is what
 * `npm run bench` is for.
 */
import { vi } from "vitest";

/** How long any test waits for an event before calling it a hang. */
export const WAIT_MS = 20_000;

/** `vi.waitFor` with the generous bound (its own default, 1 s, lost to a 1.07 s operation once). */
export function eventually<T>(assertion: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(assertion, { timeout: WAIT_MS, interval: 10 });
}

/** Polls a condition until it holds, for code that exposes no event to wait on. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not reached in ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * One macrotask: the host yield the plugin makes (`window.setTimeout(…, 0)`), injected into the
 * plugin in tests so that vault events queued meanwhile run. It waits for nothing, so a slow
 * machine cannot make it fail.
 */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
