/** A note the disk will not hand over is an "unreadable" input error with the reason in words. */
import { describe, expect, it } from "vitest";
import { MemoryVault } from "../../src/vault/memory-vault";
import { isUnreadableNote, readNote } from "../../src/wiki/read-note";

function failing(code: string, syscall: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} failed`), { code, syscall });
}

class FailingVault extends MemoryVault {
  constructor(private readonly failure: { stat?: Error; read?: Error }) {
    super({ "notes/Note.md": "# Note\n\nWords.\n" });
  }
  override stat(path: string) {
    return this.failure.stat ? Promise.reject(this.failure.stat) : super.stat(path);
  }
  override readBytes(path: string) {
    return this.failure.read ? Promise.reject(this.failure.read) : super.readBytes(path);
  }
}

describe("reading a note the disk refuses", () => {
  it.each([
    [{ read: failing("EISDIR", "read") }, "it is a folder, not a file (EISDIR)"],
    [{ read: failing("EACCES", "open") }, "permission was denied (EACCES)"],
    [{ stat: failing("EIO", "stat") }, "the disk reported an input/output error (EIO)"],
    [{ read: new Error("the handle went away") }, "the handle went away"],
  ])("says it could not read the note (%o)", async (failure, reason) => {
    const error = await readNote(new FailingVault(failure), "notes/Note.md", 1_000_000, "wiki").catch((e: unknown) => e);
    expect(isUnreadableNote(error)).toBe(true);
    expect(error).toMatchObject({ kind: "input", message: `Could not read the note "notes/Note.md": ${reason}.` });
  });

  it("keeps the other refusals as they were: a binary note is not 'unreadable'", async () => {
    const vault = new MemoryVault({ "notes/Bin.md": "PNG\u0000\u0001" });
    const error = await readNote(vault, "notes/Bin.md", 1_000_000, "wiki").catch((e: unknown) => e);
    expect(isUnreadableNote(error)).toBe(false);
  });
});
