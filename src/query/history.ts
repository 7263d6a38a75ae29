/**
 * The conversation of "Ask the wiki", kept per vault in the state folder (not in data.json, which
 * syncs settings, not chats), so follow-up questions keep their context across restarts.
 */
import * as z from "zod";
import type { Message } from "../core/schemas";
import type { StateStore } from "../vault/state-store";

const HISTORY_KEY = "query/history.json";
/** Turns kept; older ones are dropped so the file and the prompt stay small. */
export const MAX_TURNS = 20;

const TurnSchema = z.object({
  question: z.string(),
  answer: z.string(),
  at: z.string(),
  citations: z.array(z.object({ page: z.string(), path: z.string().nullable(), verified: z.boolean() })).default([]),
});
export type Turn = z.infer<typeof TurnSchema>;
const HistorySchema = z.object({ version: z.literal(1), turns: z.array(TurnSchema) });

export class QueryHistory {
  constructor(private readonly store: StateStore) {}

  /** The turns, oldest first; an unreadable file is treated as an empty history, never an error. */
  async turns(): Promise<Turn[]> {
    const text = await this.store.read(HISTORY_KEY).catch(() => null);
    if (!text) return [];
    try {
      const parsed = HistorySchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.turns : [];
    } catch {
      return [];
    }
  }

  async add(turn: Turn): Promise<void> {
    const turns = [...(await this.turns()), turn].slice(-MAX_TURNS);
    await this.store.write(HISTORY_KEY, JSON.stringify({ version: 1, turns }));
  }

  async clear(): Promise<void> {
    await this.store.remove(HISTORY_KEY);
  }

  /** The turns as chat messages, for a follow-up question. */
  static messages(turns: readonly Turn[]): Message[] {
    return turns.flatMap((t): Message[] => [
      { role: "user", content: t.question },
      { role: "assistant", content: t.answer },
    ]);
  }
}
