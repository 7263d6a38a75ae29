/**
 * The write path's context for the Node programs (CLI and bridge): state in the vault's plugin
 * folder (shared with the plugin), the writer named by device, process id and host, and a liveness check
 * so a lock left by a killed process on this machine is taken over at once.
 */
import { hostname } from "node:os";
import type { WriteContext } from "../write/write-context";
import { describeHolder } from "../write/write-lock";
import { nodeDevice } from "../vault/device-id";
import { NodeStateStore } from "../vault/node-state-store";

/** Is a process with this id running on this machine? (EPERM: it runs, under another user.) */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface NodeWriteOptions {
  readonly kind: "cli" | "bridge";
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Told once when another writer holds the lock and this one waits. */
  readonly notify?: (line: string) => void;
}

/** Seconds to wait for another writer: `SYNAPSE_LOCK_WAIT_SECONDS`, 60 by default. */
function lockWaitMs(env: NodeWriteOptions["env"]): number {
  const raw = Number(env.SYNAPSE_LOCK_WAIT_SECONDS);
  return Number.isFinite(raw) && raw >= 0 ? raw * 1000 : 60_000;
}

export function nodeWriteContext(vaultRoot: string, options: NodeWriteOptions): WriteContext {
  // Test-only: a pause after each file written, so a test can kill the process mid-apply.
  const delay = Number(options.env.SYNAPSE_TEST_APPLY_DELAY_MS);
  const device = nodeDevice(options.env);
  const writer = { kind: options.kind, pid: process.pid, host: hostname(), ...(device ? { device } : {}) };
  return {
    store: NodeStateStore.forVault(vaultRoot),
    writer,
    lock: {
      isAlive: processIsAlive,
      waitMs: lockWaitMs(options.env),
      onWait: (holder) => options.notify?.(`Waiting for ${describeHolder(holder, writer)}…`),
    },
    ...(Number.isFinite(delay) && delay > 0 ? { afterEachWrite: () => new Promise<void>((resolve) => setTimeout(resolve, delay)) } : {}),
  };
}
