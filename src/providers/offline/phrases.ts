/**
 * The fixed words of an Offline page — the notice that it was extracted without a model, the
 * section headings, the line that opens a term page — in the page's language. Translated for the
 * languages Obsidian's own help is most read in; for any other language a page keeps its structure
 * (notice, lists, quotes) but carries no sentence of ours, so no English prose lands in, say, a Thai
 * wiki.
 */

export interface OfflinePhrases {
  /** Title of the callout that opens every source page. */
  readonly notice: string;
  /** The callout's body: where the page comes from and what its parts are. `note` is a wikilink. */
  readonly noticeBody: ((note: string) => string) | null;
  readonly summary: string | null;
  readonly outline: string | null;
  readonly keyTerms: string | null;
  readonly alsoLinked: string | null;
  readonly mentionedIn: string | null;
}

type Translated = { readonly [K in keyof OfflinePhrases]: NonNullable<OfflinePhrases[K]> };

const TRANSLATED: Readonly<Record<string, Translated>> = {
  en: {
    notice: "Extracted without a language model",
    noticeBody: (note) => `Synapse's Offline provider built this page from ${note}: the summary is the note's opening paragraph and the outline its headings.`,
    summary: "Summary",
    outline: "Outline",
    keyTerms: "Key terms",
    alsoLinked: "Also linked",
    mentionedIn: "Mentioned in",
  },
  de: {
    notice: "Ohne Sprachmodell extrahiert",
    noticeBody: (note) => `Der Offline-Anbieter von Synapse hat diese Seite aus ${note} erstellt: Die Zusammenfassung ist der erste Absatz der Notiz, die Gliederung besteht aus ihren Überschriften.`,
    summary: "Zusammenfassung",
    outline: "Gliederung",
    keyTerms: "Schlüsselbegriffe",
    alsoLinked: "Ebenfalls verlinkt",
    mentionedIn: "Erwähnt in",
  },
  fr: {
    notice: "Extrait sans modèle de langage",
    noticeBody: (note) => `Le fournisseur hors ligne de Synapse a construit cette page à partir de ${note} : le résumé est le premier paragraphe de la note et le plan reprend ses titres.`,
    summary: "Résumé",
    outline: "Plan",
    keyTerms: "Termes clés",
    alsoLinked: "Autres liens",
    mentionedIn: "Mentionné dans",
  },
  es: {
    notice: "Extraído sin modelo de lenguaje",
    noticeBody: (note) => `El proveedor sin conexión de Synapse creó esta página a partir de ${note}: el resumen es el primer párrafo de la nota y el esquema, sus encabezados.`,
    summary: "Resumen",
    outline: "Esquema",
    keyTerms: "Términos clave",
    alsoLinked: "Otros enlaces",
    mentionedIn: "Mencionado en",
  },
  it: {
    notice: "Estratto senza modello linguistico",
    noticeBody: (note) => `Il provider offline di Synapse ha creato questa pagina da ${note}: il riassunto è il primo paragrafo della nota e lo schema ne riprende i titoli.`,
    summary: "Riassunto",
    outline: "Schema",
    keyTerms: "Termini chiave",
    alsoLinked: "Altri collegamenti",
    mentionedIn: "Menzionato in",
  },
  pt: {
    notice: "Extraído sem modelo de linguagem",
    noticeBody: (note) => `O provedor offline do Synapse criou esta página a partir de ${note}: o resumo é o primeiro parágrafo da nota e o esquema, os seus títulos.`,
    summary: "Resumo",
    outline: "Esquema",
    keyTerms: "Termos-chave",
    alsoLinked: "Outros links",
    mentionedIn: "Mencionado em",
  },
  nl: {
    notice: "Geëxtraheerd zonder taalmodel",
    noticeBody: (note) => `De offline-provider van Synapse heeft deze pagina gemaakt uit ${note}: de samenvatting is de eerste alinea van de notitie en de opzet bestaat uit haar koppen.`,
    summary: "Samenvatting",
    outline: "Opzet",
    keyTerms: "Kernbegrippen",
    alsoLinked: "Ook gelinkt",
    mentionedIn: "Genoemd in",
  },
  pl: {
    notice: "Wyodrębniono bez modelu językowego",
    noticeBody: (note) => `Dostawca offline Synapse utworzył tę stronę z ${note}: streszczenie to pierwszy akapit notatki, a konspekt to jej nagłówki.`,
    summary: "Streszczenie",
    outline: "Konspekt",
    keyTerms: "Kluczowe pojęcia",
    alsoLinked: "Inne linki",
    mentionedIn: "Wspomniane w",
  },
  ru: {
    notice: "Извлечено без языковой модели",
    noticeBody: (note) => `Офлайн-провайдер Synapse составил эту страницу из ${note}: краткое содержание — первый абзац заметки, план — её заголовки.`,
    summary: "Краткое содержание",
    outline: "План",
    keyTerms: "Ключевые термины",
    alsoLinked: "Другие ссылки",
    mentionedIn: "Упоминается в",
  },
  ja: {
    notice: "言語モデルを使わずに抽出",
    noticeBody: (note) => `このページは Synapse のオフラインプロバイダーが ${note} から作成しました。要約はノートの最初の段落、アウトラインはその見出しです。`,
    summary: "要約",
    outline: "アウトライン",
    keyTerms: "主要な用語",
    alsoLinked: "その他のリンク",
    mentionedIn: "言及元",
  },
  zh: {
    notice: "未使用语言模型提取",
    noticeBody: (note) => `此页面由 Synapse 的离线提供程序根据 ${note} 生成：摘要是笔记的第一段，大纲是它的标题。`,
    summary: "摘要",
    outline: "大纲",
    keyTerms: "关键术语",
    alsoLinked: "其他链接",
    mentionedIn: "提及于",
  },
  ko: {
    notice: "언어 모델 없이 추출됨",
    noticeBody: (note) => `이 페이지는 Synapse의 오프라인 공급자가 ${note}에서 만들었습니다. 요약은 노트의 첫 단락이고, 개요는 노트의 제목입니다.`,
    summary: "요약",
    outline: "개요",
    keyTerms: "핵심 용어",
    alsoLinked: "기타 링크",
    mentionedIn: "언급된 노트",
  },
};

/** Structure without prose, for the languages we have no translation for. */
const NEUTRAL: OfflinePhrases = {
  notice: "Synapse · Offline",
  noticeBody: null,
  summary: null,
  outline: null,
  keyTerms: null,
  alsoLinked: null,
  mentionedIn: null,
};

/** The languages the Offline provider's fixed phrases are translated into. */
export const TRANSLATED_LANGUAGES: readonly string[] = Object.keys(TRANSLATED);

export function offlinePhrases(language: string): OfflinePhrases {
  return TRANSLATED[language] ?? NEUTRAL;
}
