/** Reads an NDJSON response body line by line, as it arrives. No Node built-ins: runs in the plugin. */

/** The lines of a streamed body; falls back to the whole text when the transport cannot stream. */
export async function* ndjsonLines(response: Response): AsyncIterable<string> {
  if (!response.body) {
    yield* (await response.text()).split("\n");
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
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
    await reader.cancel().catch(() => undefined);
  }
}
