/**
 * An independent check for model output that could still run once written: it shares no code with
 * the sanitiser and reads the text with plain regular expressions over a fully decoded copy, so a
 * mistake in one is not repeated in the other. It is stricter than the sanitiser needs (it ignores
 * code fences) and so is meant for text whose hostile parts sit outside code.
 */

const NAMED: Record<string, string> = { colon: ":", tab: "\t", newline: "\n", sol: "/", period: "." };

/** Entities, percent escapes and backslash escapes decoded (repeatedly), tabs and returns dropped. */
function decoded(text: string): string {
  let current = text;
  for (let round = 0; round < 3; round++) {
    const next = current
      .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
      .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Math.min(parseInt(dec, 10), 0x10ffff)))
      .replace(/&([a-z]+);/gi, (m, name: string) => NAMED[name.toLowerCase()] ?? m)
      .replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\([!-/:-@[-`{-~])/g, "$1")
      .replace(/[\t\r]/g, "");
    if (next === current) break;
    current = next;
  }
  return current;
}

const RUNNING_TAG = /<\s*\/?\s*(?:script|iframe|object|embed|style|link|meta|base|form|img|svg|a|video|audio|source|input|button|textarea|math|frame|frameset|applet|div|details)\b/i;
const HANDLER_IN_TAG = /<[a-z][^<>]*\s(?:on[a-z]+|srcdoc|style|href|src)\s*=/i;

/** The executable forms found in `text`, named; empty when none. */
export function executableParts(text: string): string[] {
  const found: string[] = [];
  const plain = decoded(text);
  if (RUNNING_TAG.test(text)) found.push(`HTML tag: ${RUNNING_TAG.exec(text)?.[0]}`);
  if (HANDLER_IN_TAG.test(text)) found.push(`attribute: ${HANDLER_IN_TAG.exec(text)?.[0]}`);
  if (/<!--|<\?|<!\[CDATA\[/i.test(text)) found.push("HTML comment or declaration");
  if (/(?:javascript|vbscript)\s*:/i.test(plain)) found.push("script URL");
  if (/\b(?:file|data):\S/i.test(plain)) found.push("file or data URL");
  if (/^[\s>*+\-\d.)]*(?:`{3,}|~{3,})\s*(?:dataviewjs|dataview|datacorejsx?|js-engine|button|run-\w+)/im.test(text)) found.push("running code block");
  if (/`\s*\$=/.test(text)) found.push("Dataview inline JavaScript");
  if (text.includes("<%")) found.push("Templater command");
  if (/^%% \/?synapse:source/m.test(text)) found.push("provenance marker");
  return found;
}
