/**
 * A wiki with pages that say the same thing in other words, beside pages that are only related
 * (same people, same terms, another subject), a pair the user marked as not duplicates, and two
 * short stubs that quote one sentence. Shared by the core, CLI and plugin tests: all three must
 * report exactly `SIMILAR_PAIRS`.
 */
const page = (type: string, title: string, body: string, extra = "") => `---\ntype: ${type}\ntitle: ${title}\nsources: [notes/history.md]\n${extra}---\n\n${body}\n`;

export const SIMILAR_WIKI: Record<string, string> = {
  "notes/history.md": "# History of computing\n\nNotes on [[Ada Lovelace]], [[Charles Babbage]] and tea.\n",
  "wiki/entities/Ada Lovelace.md": page(
    "entity",
    "Ada Lovelace",
    "Ada Lovelace was an English mathematician and writer, chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine. She was the first to recognise that the machine had applications beyond pure calculation, and she published the first algorithm intended to be carried out by such a machine. She was born in 1815 in London, the only legitimate child of the poet Lord Byron.",
  ),
  "wiki/entities/Augusta Ada King.md": page(
    "entity",
    "Augusta Ada King",
    "Augusta Ada King, Countess of Lovelace, was an English mathematician and writer known chiefly for her work on the Analytical Engine, the mechanical general-purpose computer proposed by Charles Babbage. She recognised that the machine had applications beyond calculation and published the first algorithm meant to be carried out by it. Born in London in 1815, she was the only legitimate child of Lord Byron, the poet.",
  ),
  "wiki/concepts/Analytical Engine.md": page(
    "concept",
    "Analytical Engine",
    "The Analytical Engine was a proposed mechanical general-purpose computer designed by the English mathematician Charles Babbage, first described in 1837 as the successor to his Difference Engine. It had an arithmetic logic unit, control flow with conditional branching and loops, and integrated memory. It was never completed, partly because of disputes with the engineer who built its parts.",
  ),
  "wiki/entities/Charles Babbage.md": page(
    "entity",
    "Charles Babbage",
    "Charles Babbage was an English polymath: a mathematician, philosopher, inventor and mechanical engineer who originated the concept of a digital programmable computer. He designed the Difference Engine to compute tables of polynomials and later the Analytical Engine. Parts of his unfinished mechanisms are on display in the Science Museum in London. He was born in 1791 and died in 1871.",
  ),
  "wiki/concepts/Tea.md": page(
    "concept",
    "Tea",
    "Tea is an aromatic beverage prepared by pouring hot or boiling water over cured or fresh leaves of the tea plant, an evergreen shrub native to East Asia. After plain water, it is the most widely consumed drink in the world. Its many varieties have a cooling, slightly bitter and astringent flavour that people enjoy, and it was first drunk in southwest China.",
  ),
  "wiki/concepts/Tea drink.md": page(
    "concept",
    "Tea drink",
    "Tea is an aromatic drink made by pouring hot or boiling water over the cured or fresh leaves of the tea plant, an evergreen shrub that is native to East Asia. It is the most widely consumed drink in the world after plain water. Many of its varieties have a slightly bitter, cooling and astringent flavour, and it was first drunk in southwest China.",
  ),
  "wiki/concepts/Chai.md": page(
    "concept",
    "Chai",
    "Masala chai is a spiced tea beverage from the Indian subcontinent, made by boiling black tea leaves in milk and water with a mixture of aromatic spices such as cardamom, ginger, cinnamon and cloves, and sweetened with sugar. Street vendors called chai wallahs sell it in small clay cups at railway stations and markets across India, where it is drunk many times a day.",
  ),
  // The user keeps both on purpose: not compared.
  "wiki/concepts/Tea (kept apart).md": page(
    "concept",
    "Tea (kept apart)",
    "Tea is an aromatic beverage prepared by pouring hot or boiling water over cured or fresh leaves of the tea plant, an evergreen shrub native to East Asia. After plain water, it is the most widely consumed drink in the world. Its many varieties have a cooling, slightly bitter and astringent flavour that people enjoy, and it was first drunk in southwest China.",
    "synapse_lint_ignore: [duplicate]\n",
  ),
  // Two stubs quoting one sentence: nearly the same words, too few to say they are one subject.
  "wiki/entities/Difference Engine.md": page("entity", "Difference Engine", "*From [[notes/history|History]]*\n\n> Babbage built the Difference Engine and the Analytical Engine in London."),
  "wiki/entities/London.md": page("entity", "London", "*From [[notes/history|History]]*\n\n> Babbage built the Difference Engine and the Analytical Engine in London."),
};

/** The duplicates by similarity of SIMILAR_WIKI, as "kept page ← merged page". */
export const SIMILAR_PAIRS = ["wiki/concepts/Tea.md ← wiki/concepts/Tea drink.md", "wiki/entities/Ada Lovelace.md ← wiki/entities/Augusta Ada King.md"];
