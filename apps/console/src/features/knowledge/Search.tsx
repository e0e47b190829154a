import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { Schemas } from '../../api/client';
import { pagesLabel } from '../../api/knowledge';
import { useKnowledgeBases, useSearchKnowledge } from '../../hooks/use-knowledge';
import { ErrorNotice } from '../../components/ui';
import { useSession } from '../../session';

type SearchMode = NonNullable<Schemas['KnowledgeQueryRequest']['mode']>;
const MODES: Array<{ mode: SearchMode; label: string }> = [
  { mode: 'hybrid', label: 'hybrid (both, fused by rank)' },
  { mode: 'vector', label: 'vector (cosine similarity)' },
  { mode: 'keyword', label: 'keyword (full-text)' },
];

/** Queries the knowledge base as an agent would, showing each match's score and which search found it. */
export function Search() {
  const { orgId } = useSession();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<SearchMode>('hybrid');
  const [matchCount, setMatchCount] = useState(5);
  const [scope, setScope] = useState('');
  const bases = useKnowledgeBases();
  const baseNames = new Map(bases.data?.map((base) => [base.knowledge_base_id, base.name]));
  const search = useSearchKnowledge();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    search.mutate({ org_id: orgId, query, mode, match_count: matchCount, ...(scope ? { knowledge_base_ids: [scope] } : {}) });
  };
  return (
    <section aria-labelledby="search-heading">
      <h2 id="search-heading">Search playground</h2>
      <form onSubmit={submit} className="row">
        <label htmlFor="search-query">Query</label>
        <input id="search-query" type="search" required value={query} onChange={(event) => setQuery(event.target.value)} />
        <label htmlFor="search-mode">Search</label>
        <select id="search-mode" value={mode} onChange={(event) => setMode(event.target.value as SearchMode)}>
          {MODES.map((option) => (
            <option key={option.mode} value={option.mode}>
              {option.label}
            </option>
          ))}
        </select>
        <label htmlFor="search-count">Matches</label>
        <input id="search-count" type="number" min={1} max={20} value={matchCount} onChange={(event) => setMatchCount(Number(event.target.value))} />
        <label htmlFor="search-scope">In</label>
        <select id="search-scope" value={scope} onChange={(event) => setScope(event.target.value)}>
          <option value="">all knowledge bases</option>
          {bases.data?.map((base) => (
            <option key={base.knowledge_base_id} value={base.knowledge_base_id}>
              {base.name}
              {base.is_default ? ' (default)' : ''}
            </option>
          ))}
        </select>
        <button type="submit" disabled={search.isPending}>
          Search
        </button>
      </form>
      <ErrorNotice error={search.error} />
      {search.data &&
        (search.data.matches.length === 0 ? (
          <p role="status">No matches.</p>
        ) : (
          <ol className="matches" aria-label="Matches, best first">
            {search.data.matches.map((match) => (
              <li key={match.chunk_id}>
                <p>
                  <strong>
                    <Link href={`/knowledge/${match.doc_id}`}>{match.title ?? match.doc_id}</Link>
                  </strong>
                  {pagesLabel(match.page_start, match.page_end) && <> · {pagesLabel(match.page_start, match.page_end)}</>} · chunk{' '}
                  {match.chunk_index ?? '?'}
                  {baseNames.has(match.knowledge_base_id) && <> · in {baseNames.get(match.knowledge_base_id)}</>} · score{' '}
                  <data className="score" value={match.score}>
                    {match.score.toFixed(3)}
                  </data>{' '}
                  · found by {match.found_by.join(' and ')}
                  {match.vector_similarity !== null && <> · similarity {match.vector_similarity.toFixed(3)}</>}
                </p>
                <p className="text">{match.content}</p>
              </li>
            ))}
          </ol>
        ))}
    </section>
  );
}
