/**
 * The vault's id, in the state folder (`vault-id.json`), created once. Unlike the device id it is
 * meant to sync: every copy of one vault shares it, so a journal from a state folder copied into
 * another vault is recognised as not this vault's and never rolled back against it.
 */
import * as z from "zod";
import { SynapseError } from "../core/errors";
import type { StateStore } from "../vault/state-store";
import { parseRecord } from "./write-records";

export const VAULT_ID_KEY = "vault-id.json";

const VaultIdSchema = z.object({ version: z.literal(1), id: z.string().min(1) });

/**
 * What a vault with no id yet is judged by: it has written no journal (its first write makes the id
 * before the journal), so a journal naming any vault is another vault's.
 */
export const NO_VAULT_ID = "";

/** The vault's id when one was made, else null (nothing is written). */
export async function knownVaultId(store: StateStore): Promise<string | null> {
  const text = await store.read(VAULT_ID_KEY);
  if (text === null) return null;
  const parsed = parseRecord(VaultIdSchema, text);
  return parsed.ok ? parsed.value.id : null;
}

/** Reads the vault's id, creating it the first time (exclusively, so two first writers agree). */
export async function vaultIdOf(store: StateStore): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const text = await store.read(VAULT_ID_KEY);
    if (text !== null) {
      const parsed = parseRecord(VaultIdSchema, text);
      if (parsed.ok) return parsed.value.id;
      // Damaged: a new id only costs recognising older journals as this vault's by their device.
      await store.write(VAULT_ID_KEY, JSON.stringify({ version: 1, id: crypto.randomUUID() }));
      continue;
    }
    await store.createExclusive(VAULT_ID_KEY, JSON.stringify({ version: 1, id: crypto.randomUUID() }));
  }
  throw new SynapseError("vault", "The vault's id could not be read or written in Synapse's state folder.");
}
