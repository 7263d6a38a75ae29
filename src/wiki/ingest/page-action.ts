import type { ChangeAction } from "../../write/planned-change";
import type { PageAction } from "../ingest-types";

/** An ingest never removes a page; a change it planned as a removal is reported as it stands. */
export function pageAction(action: ChangeAction): PageAction {
  return action === "removed" ? "unchanged" : action;
}
