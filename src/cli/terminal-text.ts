/**
 * Model-written text made safe for a terminal: control characters other than the line break and
 * the tab are dropped, C1 ones included. A model's reply — random bytes from a broken model, or an
 * instruction planted in a note — could otherwise move the cursor, rewrite what the user already
 * read, retitle the window or hide text through escape sequences (ESC, CSI, OSC).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, "");
}
