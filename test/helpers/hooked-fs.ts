/**
 * NodeVault's file-system calls with a hook before and after each one, so a test can act (an
 * editor saving the file) at any step boundary of a write. Boundaries are numbered in the order
 * they are reached: call i has boundary 2i (before it) and 2i + 1 (after it, whether it succeeded
 * or failed).
 */
import { nodeFsOps, type NodeFsOps } from "../../src/vault/node-fs-ops";

export interface Boundary {
  /** 0, 1, 2, … in the order reached. */
  readonly index: number;
  readonly op: keyof NodeFsOps;
  /** The first path the call names (absolute). */
  readonly path: string;
  readonly phase: "before" | "after";
}

export function hookedFs(hook: (boundary: Boundary) => void | Promise<void>): NodeFsOps & { readonly boundaries: readonly Boundary[] } {
  const boundaries: Boundary[] = [];
  const reach = async (op: keyof NodeFsOps, path: string, phase: Boundary["phase"]) => {
    const boundary = { index: boundaries.length, op, path, phase };
    boundaries.push(boundary);
    await hook(boundary);
  };
  const wrap = <A extends [string, ...unknown[]], R>(op: keyof NodeFsOps, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await reach(op, args[0], "before");
      try {
        return await call(...args);
      } finally {
        await reach(op, args[0], "after");
      }
    };
  return {
    boundaries,
    readFile: wrap("readFile", nodeFsOps.readFile),
    writeFile: wrap("writeFile", nodeFsOps.writeFile),
    rename: wrap("rename", nodeFsOps.rename),
    link: wrap("link", nodeFsOps.link),
    rm: wrap("rm", nodeFsOps.rm),
    mkdir: wrap("mkdir", nodeFsOps.mkdir),
    appendFile: wrap("appendFile", nodeFsOps.appendFile),
    isFile: wrap("isFile", nodeFsOps.isFile),
  };
}
