/**
 * Is a user-set folder (the wiki folder) a folder on every platform Obsidian runs on? A vault
 * synced between Windows, macOS, Linux and phones must be able to hold it, and Obsidian must show
 * it: a name Windows cannot create (`Wiki.`, `NUL`, `a:b`) or an absolute path (`C:\Users\x`) would
 * fail on some device, or write somewhere the user did not mean.
 */

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f<>:"|?*#^[\]\\]/u;
const FORMAT = /\p{Cf}/u;
const DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)\s*(\..*)?$/i;
const MAX_SEGMENT_BYTES = 255;

/** What is wrong with one folder name, or null. */
function segmentProblem(segment: string): string | null {
  if (segment === "." || segment === "..") return `"${segment}" would point outside the vault`;
  if (/^\s|[\s.]$/.test(segment)) return `"${segment}" begins with a space or ends with a dot or space, which Windows removes`;
  if (segment.startsWith(".")) return `"${segment}" begins with a dot, so Obsidian would hide it`;
  const forbidden = FORBIDDEN.exec(segment);
  if (forbidden) return `"${segment}" holds "${forbidden[0]}", which some systems or Obsidian links do not allow in a folder name`;
  if (FORMAT.test(segment)) return `"${segment}" holds an invisible formatting character`;
  if (DEVICE.test(segment)) return `"${segment}" is a device name on Windows`;
  if (new TextEncoder().encode(segment).length > MAX_SEGMENT_BYTES) return `a folder name is longer than ${MAX_SEGMENT_BYTES} bytes`;
  return null;
}

/**
 * One sentence saying why `folder` cannot be the wiki folder, or null when it can. Empty means the
 * default; slashes at either end are ignored, as the settings tab strips them.
 */
export function wikiFolderProblem(folder: string): string | null {
  const trimmed = folder.trim();
  if (/^[a-z]:/i.test(trimmed) || trimmed.startsWith("\\") || trimmed.startsWith("~")) {
    return `The wiki folder "${folder}" is an absolute path; give a folder inside the vault, such as "wiki".`;
  }
  const inner = trimmed.replace(/^\/+|\/+$/g, "");
  if (inner === "") return null;
  for (const segment of inner.split("/")) {
    if (segment === "") continue;
    const problem = segmentProblem(segment);
    if (problem) return `The wiki folder "${folder}" cannot be used on every device: ${problem}.`;
  }
  return null;
}
