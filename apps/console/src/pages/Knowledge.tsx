import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { Schemas } from '../api/client';
import { pagesLabel, type KnowledgeDocument } from '../api/knowledge';
import { useAddDocument, useDeleteDocument, useDocuments, useKnowledgeBases, useSearchKnowledge } from '../hooks/use-knowledge';
import { DocsLink, Done, ErrorNotice, Pager, ScopeNote, Status, usePager, When, TableScroll } from '../components/ui';
import { useSession } from '../session';
import { FileUploads } from './knowledge/FileUploads';
import { KnowledgeBasePicker } from './knowledge/KnowledgeBases';

export { DocumentPage } from './knowledge/DocumentPage';

/**
 * The organisation's knowledge: its knowledge bases (one chosen, or all), files added with a progress bar each,
 * documents with their status, delete, and a search playground.
 */
export function KnowledgePage() {
  const { can } = useSession();
  const pager = usePager();
  const [baseId, setBaseId] = useState('');
  const bases = useKnowledgeBases();
  const chosen = bases.data?.find((base) => base.knowledge_base_id === baseId);
  const defaultBase = bases.data?.find((base) => base.is_default);
  // While a document is being ingested, its status is followed until ready or failed.
  const documents = useDocuments(baseId, pager.cursor);
  return (
    <>
      <h1>Knowledge</h1>
      <DocsLink tag="knowledge">Knowledge in the API reference</DocsLink>
      <KnowledgeBasePicker
        value={baseId}
        onChange={(id) => {
          setBaseId(id);
          pager.reset();
        }}
      />
      {can('kb:write') ? (
        <>
          <FileUploads
            knowledgeBaseId={baseId}
            baseName={chosen?.name ?? (defaultBase ? `${defaultBase.name} (the default)` : 'the default knowledge base')}
          />
          <AddText knowledgeBaseId={baseId} />
        </>
      ) : (
        <ScopeNote>Uploading and deleting documents needs the kb:write scope, which this key does not have.</ScopeNote>
      )}
      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">Documents{chosen ? ` in “${chosen.name}”` : ''}</h2>
        <ErrorNotice error={documents.error} />
        {documents.data && documents.data.data.length > 0 && (
          <TableScroll label="Documents, newest first">
            <table>
              <caption className="visually-hidden">Documents, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Status</th>
                  <th scope="col">Chunks</th>
                  <th scope="col">Added</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {documents.data.data.map((document) => (
                  <DocumentRow key={document.doc_id} document={document} canDelete={can('kb:write')} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {documents.data?.data.length === 0 && <p>No documents yet.</p>}
        <Pager pager={pager} nextCursor={documents.data?.next_cursor} label="Pages of documents" />
      </section>
      <Search />
    </>
  );
}

function DocumentRow({ document, canDelete }: { document: KnowledgeDocument; canDelete: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteDocument(document.doc_id);
  return (
    <tr>
      <td>
        <Link href={`/knowledge/${document.doc_id}`}>{document.title}</Link>
      </td>
      <td>
        <Status value={document.status} />
        {document.status === 'processing' &&
          (document.progress ? (
            <>
              {' '}
              <progress
                aria-label={`Ingesting ${document.title}`}
                value={document.progress.chunks_embedded}
                max={document.progress.chunks_total}
              />{' '}
              {document.progress.chunks_embedded} / {document.progress.chunks_total} chunks embedded
            </>
          ) : (
            <progress aria-label={`Ingesting ${document.title}`} />
          ))}
        {document.failure_reason && <> {document.failure_reason}</>}
      </td>
      <td>{document.chunk_count}</td>
      <td>
        <When at={document.created_at} />
      </td>
      <td className="actions">
        {canDelete &&
          (confirming ? (
            <span role="group" aria-label={`Confirm deleting ${document.title}`}>
              Delete it? Its chunks stop matching at once.{' '}
              <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
                Yes, delete
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </span>
          ) : (
            <button type="button" className="danger" onClick={() => setConfirming(true)} aria-label={`Delete ${document.title}`}>
              Delete
            </button>
          ))}
        <ErrorNotice error={remove.error} />
      </td>
    </tr>
  );
}

/** Adds a document from pasted text (POST /knowledge/documents), into the chosen base (the default when all are shown). */
function AddText({ knowledgeBaseId }: { knowledgeBaseId: string }) {
  const { orgId } = useSession();
  const [text, setText] = useState('');
  const [title, setTitle] = useState('');
  const add = useAddDocument({
    onSuccess: () => {
      setText('');
      setTitle('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({
      org_id: orgId,
      title: title.trim(),
      content: text,
      metadata: { source: 'console' },
      ...(knowledgeBaseId ? { knowledge_base_id: knowledgeBaseId } : {}),
    });
  };
  return (
    <section aria-labelledby="add-text-heading">
      <h2 id="add-text-heading">Add a text</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor="doc-title">Title</label>
        <input id="doc-title" maxLength={500} required value={title} onChange={(event) => setTitle(event.target.value)} />
        <label htmlFor="doc-text">Text</label>
        <textarea id="doc-text" required rows={6} value={text} onChange={(event) => setText(event.target.value)} />
        <div>
          <button type="submit" disabled={add.isPending || !text.trim() || !title.trim()}>
            Add document
          </button>
        </div>
        {add.isSuccess && (
          <Done>Added “{add.data.title}”: it is being chunked and embedded; its status below turns ready when it can be searched.</Done>
        )}
        <ErrorNotice error={add.error} />
      </form>
    </section>
  );
}

type SearchMode = NonNullable<Schemas['KnowledgeQueryRequest']['mode']>;
const MODES: Array<{ mode: SearchMode; label: string }> = [
  { mode: 'hybrid', label: 'hybrid (both, fused by rank)' },
  { mode: 'vector', label: 'vector (cosine similarity)' },
  { mode: 'keyword', label: 'keyword (full-text)' },
];

/** Queries the knowledge base as an agent would, showing each match's score and which search found it. */
function Search() {
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
