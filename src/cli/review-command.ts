/**
 * `synapse review --vault <dir> [list | show <id> | accept <id> | refuse <id>] [--json]`: the changes
 * agents proposed through `synapse mcp`, decided from a terminal. Exit codes: 0 done, 1 the accepted
 * change could not be written (the proposal keeps waiting), 2 usage or no such proposal.
 */
import { toSynapseError } from "../core/errors";
import { acceptProposal, refuseProposal } from "../proposals/accept";
import type { Proposal } from "../proposals/proposal";
import { ProposalStore } from "../proposals/proposal-store";
import { NodeVault } from "../vault/node-vault";
import { EXIT, UsageError, parseFlags, type CliIO } from "./io";
import { recoverVault } from "./recovery";
import { existingVaultRoot, settingsWithWarnings, cliWriteContext } from "./vault-root";

export { REVIEW_USAGE } from "./usage";

const ACTIONS = ["list", "show", "accept", "refuse"] as const;
type Action = (typeof ACTIONS)[number];

function parse(argv: readonly string[]): { vault: string; action: Action; id: string | null; json: boolean } {
  const { values, positionals } = parseFlags({ args: [...argv], strict: true, allowPositionals: true, options: { vault: { type: "string" }, json: { type: "boolean" } } });
  if (!values.vault) throw new UsageError("--vault <dir> is required.");
  const [given = "list", id, ...extra] = positionals;
  const action = ACTIONS.find((a) => a === given);
  if (!action) throw new UsageError(`"${given}" is not one of list, show, accept or refuse.`);
  if (action === "list" ? id !== undefined : id === undefined || extra.length > 0) {
    throw new UsageError(action === "list" ? "list takes no id." : `${action} takes one proposal id (synapse review --vault <dir> lists them).`);
  }
  return { vault: values.vault, action, id: id ?? null, json: values.json === true };
}

function summary(p: Proposal): Record<string, unknown> {
  return { id: p.id, kind: p.payload.kind, title: p.title, createdAt: p.createdAt, proposedBy: p.proposedBy, changes: p.changes.map((c) => ({ path: c.path, action: c.action })) };
}

export async function runReviewCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { vault: vaultFlag, action, id, json } = parse(argv);
  const root = await existingVaultRoot(vaultFlag, io);
  const { settings } = await settingsWithWarnings(root, io);
  const vault = new NodeVault(root);
  const write = cliWriteContext(root, io);
  await recoverVault(vault, settings.wikiFolder, write, io, action === "accept" ? "write" : "read");
  const proposals = new ProposalStore(write.store);
  const print = (value: Record<string, unknown>, text: string) => io.stdout(json ? `${JSON.stringify(value)}\n` : text);

  if (action === "list") {
    const listing = await proposals.list();
    for (const key of listing.unreadable) io.stderr(`Warning: ${key} is not a proposal this version can read; it was left as it is.\n`);
    const lines = listing.proposals.map((p) => `${p.id}  ${p.title}${p.proposedBy ? `  (from ${p.proposedBy})` : ""}\n${p.changes.map((c) => `    ${c.action} ${c.path}\n`).join("")}`);
    print({ proposals: listing.proposals.map(summary) }, listing.proposals.length === 0 ? "No proposals are waiting.\n" : lines.join(""));
    return EXIT.ok;
  }
  try {
    const proposalId = id ?? "";
    if (action === "refuse") {
      const refused = await refuseProposal(proposals, proposalId);
      print({ refused: summary(refused) }, `Refused ${refused.id}: ${refused.title}. Nothing was written.\n`);
      return EXIT.ok;
    }
    const proposal = await proposals.get(proposalId);
    if (action === "show") {
      const diffs = proposal.changes.map((c) => `${c.diff}${c.truncated ? "\n… (diff cut; accept plans the whole change)\n" : ""}`);
      print({ proposal: { ...summary(proposal), changes: proposal.changes } }, `${proposal.id}  ${proposal.title}\n\n${diffs.join("\n")}`);
      return EXIT.ok;
    }
    const outcome = await acceptProposal({ vault, settings, write }, proposals, proposal);
    print(
      { accepted: summary(proposal), status: outcome.status, files: outcome.changes },
      outcome.status === "applied"
        ? `Accepted ${proposal.id}: ${proposal.title}\n${outcome.changes.map((c) => `  ${c.action} ${c.path}\n`).join("")}synapse undo takes it back.\n`
        : `Accepted ${proposal.id}, but nothing is left to change: the vault already holds it.\n`,
    );
    return EXIT.ok;
  } catch (error) {
    const failure = toSynapseError(error, "vault");
    if (json) io.stdout(`${JSON.stringify({ error: { kind: failure.kind, message: failure.message } })}\n`);
    else io.stderr(`Error (${failure.kind}): ${failure.message}\n`);
    return failure.kind === "input" ? EXIT.usage : EXIT.failure;
  }
}
