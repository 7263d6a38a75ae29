/**
 * Is a retrieved passage about the question at all? Ranked retrieval always returns something
 * (vectors and graph expansion have no "no match"), so before a model may answer, a passage must
 * share a meaningful word with the question. A passage that does not is not context; when none
 * does, the answer is "not in your wiki" and nothing is sent.
 */
import type { RetrievalHit } from "../retrieval";

/** Question words and fillers in the corpus's most common languages; they say nothing of a topic. */
const STOP = new Set(
  (
    "what which who whom whose when where why how does did do is are was were the and for with from about into that this these those there their " +
    "can could should would will shall may might must have has had been being not any some all more most much many tell explain describe " +
    "was wer wie wo warum welche welcher welches ist sind und oder der die das den dem des ein eine einer mit von über für nicht " +
    "que qui quoi quel quelle quels comment pourquoi est sont les des une dans pour avec sur pas " +
    "qué quién cómo dónde cuál cuáles por para con los las una del sobre son está " +
    "che chi come dove perché quale sono della delle degli nel con per una " +
    "что как где почему какой какая это или для при"
  ).split(" "),
);

function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLocaleLowerCase();
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/** The question's meaningful terms, folded: no stop words, no one- or two-letter Latin words. */
export function questionTerms(question: string): string[] {
  const terms = new Set<string>();
  for (const part of segmenter.segment(fold(question))) {
    if (!part.isWordLike) continue;
    const word = part.segment;
    const spaceless = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(word);
    if (STOP.has(word) || (!spaceless && word.length < 3)) continue;
    terms.add(word);
  }
  return [...terms];
}

export function isRelevant(hit: RetrievalHit, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const text = fold(`${hit.path} ${hit.heading} ${hit.text}`);
  return terms.some((t) => text.includes(t));
}
