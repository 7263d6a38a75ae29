/** Retrieval's argument errors: one sentence a caller can act on, kind "input". */
import { SynapseError } from "../core/errors";

export function retrievalError(message: string): SynapseError {
  return new SynapseError("input", message);
}
