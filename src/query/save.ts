/**
 * "Save as page": an answer filed back as a `synthesis` page through the one write path (review,
 * journal, undo, index.md, log.md as `## [date] query | <question>`). Its `sources` are the notes
 * behind the cited pages, so lint and revision see where its claims come from. The page records
 * which question it answers (`synapse_query`), so saving the same question again updates that page
 * — wherever the user moved it — instead of making a second one.
 */
import { splitFrontmatter, frontmatterPaths } from "../core/markdown";
import { sanitiseMarkdown } from "../core/sanitise-markdown";
import { mergeSources } from "../core/sources";
import { cleanTitle, nameKey } from "../core/unicode";
import type { VaultPort } from "../vault/vault-port";
import { contentHash } from "../core/content-hash";
import { HASH_KEY, composeMarkdown } from "../wiki/page-markdown";
import { fileNamer, pagePath } from "../wiki/page-paths";
import type { PlannedChange } from "../write/planned-change";
import type { AskReport } from "./ask";
import type { Turn } from "./history";

/** Frontmatter key naming the question a saved answer answers. */
export const QUERY_KEY = "synapse_query";
const MAX_TITLE_CHARS = 100;

export function questionKey(question: string): string {
  return contentHash(nameKey(cleanTitle(question)));
}

function titleFor(question: string): string {
  const one = cleanTitle(question).replace(/[?？]+$/, "");
  return one.length > MAX_TITLE_CHARS ? `${one.slice(0, MAX_TITLE_CHARS).trimEnd()}…` : one;
}

/** Characters of the question the review window's title shows; the window itself lists the whole page. */
const MAX_REVIEW_TITLE_CHARS = 60;

/** The title of the review window a save opens: what it does, and for which question. */
export function saveReviewTitle(question: string): string {
  // By code points, so an emoji or a CJK extension character is never cut in half.
  const chars = [...cleanTitle(question)];
  const shown = chars.length > MAX_REVIEW_TITLE_CHARS ? `${chars.slice(0, MAX_REVIEW_TITLE_CHARS).join("").trimEnd()}…` : chars.join("");
  return `Save answer: ${shown}`;
}

/**
 * What saving an answer reads of it: an AskReport, or an answer kept since (an agent's proposal),
 * with the passages its citations were checked against.
 */
export type SavableAnswer = Pick<AskReport, "question" | "answer" | "citations"> & {
  readonly passages: readonly Pick<AskReport["passages"][number], "path" | "kind">[];
  readonly consulted: readonly Pick<AskReport["consulted"][number], "path" | "kind">[];
};

/** The notes behind the verified citations: a cited note itself, a cited page's own sources. */
async function sourcesOf(vault: VaultPort, report: SavableAnswer): Promise<string[]> {
  let sources: string[] = [];
  for (const c of report.citations) {
    const passage = c.verified ? (report.passages.find((p) => p.path === c.path) ?? report.consulted.find((p) => p.path === c.path)) : undefined;
    if (!passage) continue;
    if (passage.kind === "note") {
      sources = mergeSources(sources, [passage.path]);
      continue;
    }
    const text = await vault.read(passage.path).catch(() => "");
    const cited = frontmatterPaths(splitFrontmatter(text).frontmatter.sources);
    sources = mergeSources(sources, cited.length > 0 ? cited : [passage.path]);
  }
  return sources;
}

/** The page's text. The answers and the cited names are the model's, so they are made inert (the questions are the user's). */
function body(report: SavableAnswer, conversation: readonly Turn[]): string {
  const parts = [sanitiseMarkdown(report.answer.trim())];
  const cited = report.citations.filter((c) => c.verified);
  if (cited.length > 0) parts.push(`## Sources\n\n${cited.map((c) => `- [[${c.path?.replace(/\.md$/i, "") ?? c.page}|${c.page}]]`).join("\n")}`);
  const unverified = report.citations.filter((c) => !c.verified);
  if (unverified.length > 0) parts.push(`> [!warning] Unverified citations\n${unverified.map((c) => `> - ${sanitiseMarkdown(c.page)}: ${c.reason}`).join("\n")}`);
  if (conversation.length > 0) {
    parts.push(`## Conversation\n\n${conversation.map((t) => `**Q:** ${t.question}\n\n${sanitiseMarkdown(t.answer.trim())}`).join("\n\n---\n\n")}`);
  }
  return parts.join("\n\n");
}

/** The saved page that answers this question, wherever it now is, or null. */
async function findSaved(vault: VaultPort, wikiFolder: string, key: string): Promise<string | null> {
  for (const path of await vault.list(wikiFolder)) {
    const text = await vault.read(path).catch(() => "");
    if (!text.includes(QUERY_KEY)) continue;
    if (splitFrontmatter(text).frontmatter[QUERY_KEY] === key) return path;
  }
  return null;
}

export async function planAnswerPage(
  vault: VaultPort,
  wikiFolder: string,
  report: SavableAnswer,
  conversation: readonly Turn[],
  date: string,
): Promise<PlannedChange> {
  const key = questionKey(report.question);
  const title = titleFor(report.question);
  const content = body(report, conversation);
  const sources = await sourcesOf(vault, report);
  const frontmatter = { type: "synthesis", title, sources, lang: "", tags: ["synapse/answer"], created: date, updated: date, [QUERY_KEY]: key, [HASH_KEY]: contentHash(content) };
  const existing = await findSaved(vault, wikiFolder, key);
  if (existing) {
    return {
      path: existing,
      type: "synthesis",
      title,
      action: "updated",
      update: (current) => {
        const { frontmatter: fm, body: old } = splitFrontmatter(current);
        const ours = fm[HASH_KEY] === contentHash(old);
        const merged = { ...fm, sources: mergeSources(frontmatterPaths(fm.sources), sources), updated: date };
        // The user edited the saved answer: keep their text and add the new answer below it.
        const next = ours ? content : `${old.trim()}\n\n## Answer of ${date}\n\n${content}`;
        return { content: composeMarkdown({ ...merged, [HASH_KEY]: contentHash(next) }, next), action: ours ? "updated" : "merged" };
      },
    };
  }
  const name = fileNamer(title);
  let path = pagePath(wikiFolder, "synthesis", name(""));
  for (let n = 2; (await vault.stat(path)) !== null && n < 100; n++) path = pagePath(wikiFolder, "synthesis", name(` (${n})`));
  return { path, type: "synthesis", title, action: "created", create: composeMarkdown(frontmatter, content) };
}
