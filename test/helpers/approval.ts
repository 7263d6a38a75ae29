/**
 * Approval files for big text: the result is compared with a checked-in `*.approved.md`. On a
 * difference the result is written beside it as `*.received.md`, so the diff is a review. Run with
 * UPDATE_APPROVED=1 to accept a change.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { expect } from "vitest";

export function verifyApproved(name: string, received: string): void {
  const approved = new URL(`../approved/${name}.approved.md`, import.meta.url).pathname;
  const receivedPath = approved.replace(".approved.md", ".received.md");
  if (process.env.UPDATE_APPROVED === "1") writeFileSync(approved, received);
  const expected = existsSync(approved) ? readFileSync(approved, "utf8") : null;
  if (expected === received) {
    rmSync(receivedPath, { force: true });
    return;
  }
  writeFileSync(receivedPath, received);
  expect(received, `compare ${receivedPath} with ${approved}`).toBe(expected ?? "(no approved file yet)");
}
