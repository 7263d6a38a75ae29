import { describe, expect, it } from "vitest";
import { MAX_TURNS, QueryHistory } from "../../src/query/history";
import { MemoryStateStore } from "../../src/vault/memory-state-store";

describe("QueryHistory", () => {
  it("keeps turns across instances, the newest MAX_TURNS only, and clears them", async () => {
    const store = new MemoryStateStore();
    for (let i = 0; i < MAX_TURNS + 3; i++) await new QueryHistory(store).add({ question: `q${i}`, answer: `a${i}`, at: "2026-11-30", citations: [] });
    const turns = await new QueryHistory(store).turns();
    expect(turns).toHaveLength(MAX_TURNS);
    expect(turns[0]?.question).toBe("q3");
    expect(QueryHistory.messages(turns.slice(-1))).toEqual([
      { role: "user", content: `q${MAX_TURNS + 2}` },
      { role: "assistant", content: `a${MAX_TURNS + 2}` },
    ]);
    await new QueryHistory(store).clear();
    expect(await new QueryHistory(store).turns()).toEqual([]);
  });

  it("treats a corrupt history file as empty", async () => {
    const store = new MemoryStateStore();
    await store.write("query/history.json", '{"version":1,"turns":[{"question":');
    expect(await new QueryHistory(store).turns()).toEqual([]);
  });
});
