/**
 * zod schemas: the single source of truth for what models return. Types are inferred from them.
 * Fields are `.nullable()` or required, never `.optional()`, so the JSON Schema derived from them
 * is valid for OpenAI's strict mode as it stands.
 */
import * as z from "zod";

export const PAGE_TYPES = ["entity", "concept", "source", "synthesis", "comparison"] as const;
export const PageTypeSchema = z.enum(PAGE_TYPES);
export type PageType = z.infer<typeof PageTypeSchema>;

export const AnalysisSchema = z.object({
  /** The source's own title. */
  title: z.string(),
  /** ISO 639-1 code of the source's main language ("en", "de", "ja"). */
  language: z.string(),
  /** Two or three sentences saying what the source is about. */
  summary: z.string(),
  /** Subjects the source is about, as short noun phrases. */
  topics: z.array(z.string()),
  /** People, organisations, products, places and works the source names. */
  entities: z.array(z.object({ name: z.string(), kind: z.string(), description: z.string() })),
  /** Ideas, methods and terms the source explains. */
  concepts: z.array(z.object({ name: z.string(), description: z.string() })),
});
export type Analysis = z.infer<typeof AnalysisSchema>;

/** A contradiction a model noticed between the source it writes from and the wiki it was shown. */
export const ContradictionClaimSchema = z.object({
  /** What the source says, quoted or closely paraphrased. */
  claim: z.string(),
  /** The passage of the existing page it contradicts, quoted as it stands there. */
  existing: z.string(),
});
export type ContradictionClaim = z.infer<typeof ContradictionClaimSchema>;

/** The page shape; `type` is a parameter so replies can be parsed leniently and asked for strictly. */
function pageSchema<T extends z.ZodType<string>>(type: T, lenient: boolean) {
  const list = lenient ? z.array(z.string()).default([]) : z.array(z.string());
  const text = lenient ? z.string().default("") : z.string();
  return z.object({
    type,
    title: text,
    frontmatter: z.object({
      /** Vault-relative paths of the notes this page is drawn from; must include the ingested note. */
      sources: list,
      /** ISO 639-1 code of the page's language. */
      lang: text,
      tags: list,
    }),
    /** Markdown body, without frontmatter. Links to other pages are [[wikilinks]]. */
    content: text,
  });
}

/** Other names of the page's subject: synonyms, abbreviations, its name in other languages. */
const aliasesField = z.array(z.string());
/** Passages of the existing wiki this page's source contradicts; an empty list says "none". */
const contradictsField = z.array(ContradictionClaimSchema);

/**
 * A page as providers return it. Parsing is lenient (missing lists become empty) so that the
 * validator, not the parser, reports what is wrong in words a model can act on.
 */
export const WikiPageSchema = pageSchema(z.string().default(""), true).extend({
  // Most replies and every page read back from the vault carry neither, so both may be missing.
  aliases: aliasesField.optional(),
  contradicts: contradictsField.optional(),
});
export type WikiPage = z.infer<typeof WikiPageSchema>;

/** What a model is asked to produce when generating; strict, with the page type enum. */
export const PagesReplySchema = z.object({
  pages: z.array(pageSchema(PageTypeSchema, false).extend({ aliases: aliasesField, contradicts: contradictsField })),
});
/** What a model reply is parsed with. */
export const LenientPagesReplySchema = z.object({ pages: z.array(WikiPageSchema) });

export const MessageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.string(),
});
export type Message = z.infer<typeof MessageSchema>;

/** The note an ingest is about. */
export interface SourceNote {
  /** Vault-relative path, forward slashes. */
  readonly path: string;
  readonly text: string;
}
