/**
 * The proposals waiting for the user, one file each under `proposals/` in the state folder, where
 * the plugin, `synapse review` and `synapse mcp` all find them. A proposal leaves the folder when it
 * is accepted (its run is then in the history, undoable) or refused; nothing else removes one.
 */
import { SynapseError } from "../core/errors";
import type { StateStore } from "../vault/state-store";
import { PROPOSALS_PREFIX, ProposalSchema, type Proposal } from "./proposal";

/** How many proposals may wait at once: an agent in a loop fills no disk. */
export const MAX_PENDING_PROPOSALS = 100;

function keyOf(id: string): string {
  if (!/^[a-z0-9-]{1,64}$/.test(id)) throw new SynapseError("input", `"${id}" is not a proposal id (they look like 20261202-031500-1a2b3c4d).`);
  return `${PROPOSALS_PREFIX}/${id}.json`;
}

/** A new id that sorts by time: the list shows proposals in the order they came. */
export function newProposalId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${crypto.randomUUID().slice(0, 8)}`;
}

export interface ProposalListing {
  readonly proposals: readonly Proposal[];
  /** Files under proposals/ that are not a readable proposal (written by a newer version, damaged): kept, named. */
  readonly unreadable: readonly string[];
}

export class ProposalStore {
  constructor(private readonly store: StateStore) {}

  async list(): Promise<ProposalListing> {
    const proposals: Proposal[] = [];
    const unreadable: string[] = [];
    for (const key of await this.store.list(PROPOSALS_PREFIX)) {
      if (!key.endsWith(".json")) continue;
      const parsed = parseProposal(await this.store.read(key));
      if (parsed) proposals.push(parsed);
      else unreadable.push(key);
    }
    return { proposals: proposals.sort((a, b) => a.id.localeCompare(b.id)), unreadable };
  }

  /** The proposal, or an `input` error saying it is not (or no longer) waiting. */
  async get(id: string): Promise<Proposal> {
    const text = await this.store.read(keyOf(id));
    if (text === null) throw new SynapseError("input", `No proposal "${id}" is waiting: it was accepted or refused already, or never made.`);
    const parsed = parseProposal(text);
    if (!parsed) throw new SynapseError("vault", `The proposal "${id}" cannot be read (damaged, or written by a newer Synapse); it was left as it is.`);
    return parsed;
  }

  async save(proposal: Proposal): Promise<void> {
    const { proposals } = await this.list();
    if (proposals.length >= MAX_PENDING_PROPOSALS) {
      throw new SynapseError("input", `${proposals.length} proposals are already waiting for review; accept or refuse some (synapse review) before proposing more.`, {
        pluginMessage: `${proposals.length} proposals are already waiting for review; accept or refuse some ("Review proposals from agents") before proposing more.`,
      });
    }
    await this.store.write(keyOf(proposal.id), `${JSON.stringify(proposal, null, 2)}\n`);
  }

  async remove(id: string): Promise<void> {
    await this.store.remove(keyOf(id));
  }
}

function parseProposal(text: string | null): Proposal | null {
  if (text === null) return null;
  try {
    const result = ProposalSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
