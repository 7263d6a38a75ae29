/** What one tool call may return at most: an agent's context is small, and a vault may be huge. */

/** Search hits per call (the `limit` argument's ceiling). */
export const MAX_SEARCH_HITS = 50;
export const DEFAULT_SEARCH_HITS = 10;
/** Pages per `list_pages` call; `offset` pages through the rest. */
export const MAX_LISTED_PAGES = 500;
export const DEFAULT_LISTED_PAGES = 100;
/** Characters of one page `read_page` (or a resource read) returns; the rest is cut and said so. */
export const MAX_PAGE_CHARS = 100_000;
/** Characters of a path argument. */
export const MAX_PATH_CHARS = 1024;
/** Characters of an answer `ask` returns. */
export const MAX_ANSWER_CHARS = 50_000;
/** Findings per `lint` call; `offset` pages through the rest. */
export const MAX_LINT_FINDINGS = 200;
/** Characters of a fix id argument (they are about 40). */
export const MAX_FIX_ID_CHARS = 200;
