/**
 * A number as a person types it into a settings field: "0,50" is half a dollar in most of Europe,
 * "1,000.50" and "1.000,50" are the same amount, "8.192" is a context window in German. Returns the
 * number, or one sentence saying what to enter.
 */
export interface NumberSpec {
  readonly min: number;
  readonly max?: number;
  readonly integer: boolean;
}

/** Separators that can only group thousands: "100,000", "8.192", "1 000". */
const GROUPED = (sep: string) => new RegExp(`^[+-]?\\d{1,3}(?:\\${sep}\\d{3})+$`);

/** The text with "." as its only decimal point and no grouping, or null when it cannot be read. */
function normalise(text: string, integer: boolean): string | null {
  const comma = text.lastIndexOf(",");
  const point = text.lastIndexOf(".");
  if (comma >= 0 && point >= 0) {
    // Both: the later one is the decimal mark, the other groups ("1,000.50", "1.000,50").
    const [group, decimal] = comma > point ? [".", ","] : [",", "."];
    const [whole = "", fraction = "", ...rest] = text.split(decimal);
    if (rest.length > 0 || !GROUPED(group).test(whole)) return null;
    return `${whole.split(group).join("")}.${fraction}`;
  }
  for (const sep of [",", "."]) {
    if (!text.includes(sep)) continue;
    if (integer) return GROUPED(sep).test(text) ? text.split(sep).join("") : sep === "." ? text : null;
    // A decimal number: one comma is a decimal comma ("0,50", "1,5"), except where it can as well
    // group thousands ("1,500": fifteen hundred or one and a half?), which is refused as unclear.
    if (sep === "," && GROUPED(",").test(text)) return null;
    return sep === "," ? (text.split(",").length === 2 ? text.replace(",", ".") : null) : text;
  }
  return text;
}

export function parseNumber(raw: string, spec: NumberSpec): number | string {
  const range = spec.max === undefined ? `${spec.min} or more` : `from ${spec.min} to ${spec.max}`;
  const kind = spec.integer ? "a whole number" : "a number";
  const text = normalise(raw.trim().replace(/[\s_'’]/g, ""), spec.integer);
  if (text === null && !spec.integer && /,\d{3}$/.test(raw.trim())) return `Enter ${kind} ${range}; for "${raw.trim()}" write it with a point (${raw.trim().replace(/,/g, ".")}) or without the comma.`;
  const value = Number(text);
  if (text === null || text === "" || !Number.isFinite(value) || (spec.integer && !Number.isInteger(value))) return `Enter ${kind} ${range}.`;
  if (value < spec.min || (spec.max !== undefined && value > spec.max)) return `Enter ${kind} ${range}.`;
  return value;
}
