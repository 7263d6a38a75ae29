/**
 * Packs retrieval hits into a token budget, best first. A hit that does not fit whole is skipped
 * (a smaller one further down may still fit); only the very best hit is cut to fit rather than
 * left out, because the page most related to the note matters more than any number of others.
 * What was left out is returned, so the run log can say so. Synapse's source markers and
 * attribution lines never go in.
 */
import type { ContextEvent } from "../../core/log";
import { stripProvenance } from "../../core/provenance-strip";
import type { RetrievalHit } from "../../retrieval";
import { estimateTokens, truncateToTokens } from "../../core/tokens";

export interface PackedBlock {
  readonly hit: RetrievalHit;
  /** The block as it goes into the prompt (a header line and the chunk's text). */
  readonly text: string;
  readonly tokens: number;
  /** The chunk was cut to fit. */
  readonly truncated: boolean;
}

export interface OmittedHit {
  readonly path: string;
  readonly heading: string;
  /** What the block would have cost. */
  readonly tokens: number;
}

export interface Packed {
  readonly blocks: readonly PackedBlock[];
  readonly omitted: readonly OmittedHit[];
  /** Sum of the blocks' tokens, separators included; never above the budget. */
  readonly usedTokens: number;
  readonly budgetTokens: number;
}

/** Between two blocks in the prompt. */
export const BLOCK_SEPARATOR = "\n\n";
/** The best hit is cut to fit only when at least this much room is left for it. */
const MIN_CUT_TOKENS = 64;

function titleOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
}

function header(hit: RetrievalHit): string {
  return `### [[${titleOf(hit.path)}]]${hit.heading ? ` › ${hit.heading}` : ""} (${hit.path})\n`;
}

/**
 * Closes a code fence the text leaves open (a chunk cut inside a code block), so that joined
 * blocks never run into each other's code and each block's estimate holds in the whole prompt.
 */
function closeFences(text: string): string {
  let open: string | null = null;
  for (const line of text.split("\n")) {
    const marker = line.slice(0, 3);
    if (open === null && (marker === "```" || marker === "~~~")) open = marker;
    else if (open !== null && line.startsWith(open)) open = null;
  }
  return open === null ? text : `${text}\n${open}`;
}

export function renderBlock(hit: RetrievalHit, text = hit.text): string {
  return closeFences(`${header(hit)}${text.trim()}`);
}

export function packHits(hits: readonly RetrievalHit[], budgetTokens: number): Packed {
  const budget = Math.max(0, Math.floor(budgetTokens));
  const separator = estimateTokens(BLOCK_SEPARATOR);
  const blocks: PackedBlock[] = [];
  const omitted: OmittedHit[] = [];
  let used = 0;
  for (const found of hits) {
    // Synapse's markers and attribution lines are bookkeeping: out of the prompt, and a chunk of
    // nothing else is not sent at all.
    const clean = stripProvenance(found.text);
    if (!clean && found.text.trim()) continue;
    const hit = clean === found.text.trim() ? found : { ...found, text: clean };
    const text = renderBlock(hit);
    const tokens = estimateTokens(text);
    const cost = tokens + (blocks.length > 0 ? separator : 0);
    if (used + cost <= budget) {
      blocks.push({ hit, text, tokens, truncated: false });
      used += cost;
      continue;
    }
    if (blocks.length === 0 && omitted.length === 0 && budget >= MIN_CUT_TOKENS) {
      const head = header(hit);
      // Room for the cut text, the ellipsis and a closing fence the cut may need.
      const room = budget - estimateTokens(head) - 3;
      const cut = room > 0 ? renderBlock(hit, `${truncateToTokens(hit.text.trim(), room)}…`) : "";
      const cutTokens = estimateTokens(cut);
      if (cut && cutTokens <= budget) {
        blocks.push({ hit, text: cut, tokens: cutTokens, truncated: true });
        used += cutTokens;
        continue;
      }
    }
    omitted.push({ path: hit.path, heading: hit.heading, tokens });
  }
  return { blocks, omitted, usedTokens: used, budgetTokens: budget };
}

/** The packed blocks as one prompt section. */
export function packedText(packed: Packed): string {
  return packed.blocks.map((b) => b.text).join(BLOCK_SEPARATOR);
}

/** The packing as the run log records it. */
export function contextEvent(packed: Packed): ContextEvent {
  return {
    budgetTokens: packed.budgetTokens,
    usedTokens: packed.usedTokens,
    included: packed.blocks.map((b) => ({ path: b.hit.path, heading: b.hit.heading, tokens: b.tokens, truncated: b.truncated })),
    omitted: packed.omitted,
  };
}
