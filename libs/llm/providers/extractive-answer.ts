import type { KnowledgeToolHit } from '@pylon/contracts';

const SENTENCES = new Intl.Segmenter('und', { granularity: 'sentence' });
const MAX_SENTENCES = 3;

/** Words that say nothing of what a question is about. */
const FUNCTION_WORDS = new Set(
  'the and what which who whom whose where when how why you your yours are was were for with this that these those from have has had not but can could does did its our their there they them then than into about would should will'.split(
    ' ',
  ),
);

function terms(text: string): Set<string> {
  return new Set(
    (
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? []
    ).filter((term) => term.length > 2),
  );
}

/**
 * Recalls from the conversation: the earlier statements that share the most content words with the
 * input (at most three, in the order they were said), or null when none shares any.
 */
export function recallFromConversation(question: string, statements: readonly string[]): string | null {
  const wanted = [...terms(question)].filter((term) => !FUNCTION_WORDS.has(term));
  const scored = statements
    .map((statement, order) => {
      const own = terms(statement);
      return { statement, order, overlap: wanted.filter((term) => own.has(term)).length };
    })
    .filter((candidate) => candidate.overlap > 0);
  if (scored.length === 0) return null;
  const chosen = scored
    .sort((a, b) => b.overlap - a.overlap || b.order - a.order)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.order - b.order);
  return ['From this conversation:', ...chosen.map((candidate) => `- ${candidate.statement}`)].join('\n');
}

/**
 * Answers by extraction: the sentences of the retrieved passages that share the most terms with the
 * question (ties broken by the passage's similarity), each cited with its doc_id. No generation.
 */
export function composeExtractiveAnswer(question: string, hits: readonly KnowledgeToolHit[]): string | null {
  const wanted = terms(question);
  const candidates: Array<{ sentence: string; docId: string; pages: string; overlap: number; score: number; order: number }> = [];
  hits.forEach((hit, hitOrder) => {
    for (const { segment } of SENTENCES.segment(hit.content)) {
      const sentence = segment.replace(/\s+/g, ' ').trim();
      // A Markdown heading labels a passage; it answers nothing by itself.
      if (sentence.length < 3 || /^#{1,6}\s/.test(sentence)) continue;
      let overlap = 0;
      for (const term of terms(sentence)) if (wanted.has(term)) overlap++;
      candidates.push({ sentence, docId: hit.doc_id, pages: pagesOf(hit), overlap, score: hit.score, order: hitOrder * 1000 + candidates.length });
    }
  });
  if (candidates.length === 0) return null;
  const chosen = candidates
    .sort((a, b) => b.overlap - a.overlap || b.score - a.score || a.order - b.order)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.order - b.order);
  const sources = [...new Map(hits.filter((hit) => chosen.some((c) => c.docId === hit.doc_id)).map((hit) => [hit.doc_id, hit.title])).entries()];
  return [
    'From your knowledge base:',
    ...chosen.map((c) => `- ${c.sentence} [doc ${c.docId}${c.pages}]`),
    `Sources: ${sources.map(([docId, title]) => `${title} (${docId})`).join('; ')}`,
  ].join('\n');
}

/** A passage's pages as cited: ", p. 3" or ", pp. 3-4"; nothing for a document without pages. */
function pagesOf(hit: KnowledgeToolHit): string {
  if (hit.page_start === undefined || hit.page_end === undefined) return '';
  return hit.page_start === hit.page_end ? `, p. ${hit.page_start}` : `, pp. ${hit.page_start}-${hit.page_end}`;
}
