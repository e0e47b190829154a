import { Link } from 'wouter';
import { pagesLabel } from '../api/knowledge';
import { useSession } from '../session';
import { CitedTitle } from './RunTimeline';

export interface Citation {
  docId: string;
  pageStart: number | null;
  pageEnd: number | null;
}

const CITATION = /\[doc ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:, pp?\. (\d+)(?:[-–](\d+))?)?\]/gi;

/** The `[doc <id>]`, `[doc <id>, p. 3]` and `[doc <id>, pp. 3-4]` citations of an answer, each once, in order. */
export function citationsIn(text: string): Citation[] {
  const seen = new Map<string, Citation>();
  for (const match of text.matchAll(CITATION)) {
    const pageStart = match[2] ? Number(match[2]) : null;
    const citation = { docId: match[1]!.toLowerCase(), pageStart, pageEnd: match[3] ? Number(match[3]) : pageStart };
    const key = `${citation.docId} ${citation.pageStart} ${citation.pageEnd}`;
    if (!seen.has(key)) seen.set(key, citation);
  }
  return [...seen.values()];
}

/** The documents an answer cites, linked, with the pages when it gives them. */
export function Citations({ text }: { text: string | null }) {
  const { can } = useSession();
  const citations = text ? citationsIn(text) : [];
  if (citations.length === 0) return null;
  return (
    <>
      <h3>Cited</h3>
      <ul className="citations" aria-label="Documents the answer cites">
        {citations.map((citation) => {
          const pages = pagesLabel(citation.pageStart, citation.pageEnd);
          return (
            <li key={`${citation.docId} ${citation.pageStart} ${citation.pageEnd}`}>
              {can('kb:read') ? (
                <Link href={`/knowledge/${citation.docId}`}>
                  <CitedTitle docId={citation.docId} />
                </Link>
              ) : (
                <code>{citation.docId}</code>
              )}
              {pages && <>, {pages}</>}
            </li>
          );
        })}
      </ul>
    </>
  );
}
