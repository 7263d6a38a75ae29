/** Reads an NDJSON response body line by line, as it arrives. No Node built-ins: runs in the plugin. */
import { raceAbort } from "../../core/abort";

/**
 * The lines of a streamed body; falls back to the whole text when the transport cannot stream.
 * Every read is raced against `signal`, so cancel holds even over a transport that cannot abort.
 */
export async function* ndjsonLines(response: Response, signal: AbortSignal): AsyncIterable<string> {
  if (!response.body) {
    yield* (await raceAbort(response.text(), signal)).split("\n");
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await raceAbort(reader.read(), signal);
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        yield buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
      }
    }
    buffer += decoder.decode();
    if (buffer) yield buffer;
  } finally {
    // Stopping early (cancel, error) must release the connection so the bridge sees the close.
    // Not awaited: a transport that cannot abort may never settle it.
    reader.cancel().catch(() => undefined);
  }
}
