import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { call, type Schemas } from '../api/client';
import { DocsLink, Done, ErrorNotice, Id, Pager, ScopeNote, Status, usePager, When, TableScroll } from '../components/ui';
import { useSession } from '../session';

/** The organisation's knowledge: documents with their status, upload, delete, and a search playground. */
export function KnowledgePage() {
  const { can } = useSession();
  const pager = usePager();
  const documents = useQuery({
    queryKey: ['documents', pager.cursor],
    queryFn: () => call((pylon) => pylon.knowledge.documents.list({ limit: 20 }).page(pager.cursor)),
    // While a document is being ingested, its status is followed until ready or failed.
    refetchInterval: (query) => (query.state.data?.data.some((document) => document.status === 'processing') ? 1_000 : false),
  });
  return (
    <>
      <h1>Knowledge</h1>
      <DocsLink tag="knowledge">Knowledge in the API reference</DocsLink>
      {can('kb:write') ? <Upload /> : <ScopeNote>Uploading and deleting documents needs the kb:write scope, which this key does not have.</ScopeNote>}
      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">Documents</h2>
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

function DocumentRow({ document, canDelete }: { document: Schemas['DocumentView']; canDelete: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => call((pylon) => pylon.knowledge.documents.delete(document.doc_id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
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

/** Adds a document from a .txt/.md file or from pasted text. */
function Upload() {
  const { orgId } = useSession();
  const queryClient = useQueryClient();
  const [source, setSource] = useState<'file' | 'text'>('file');
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [title, setTitle] = useState('');
  const upload = useMutation({
    mutationFn: async () => {
      if (source === 'text') {
        return call((pylon) =>
          pylon.knowledge.documents.create({ org_id: orgId, title: title.trim(), content: text, metadata: { source: 'console' } }),
        );
      }
      if (!file) throw new Error('Choose a .txt or .md file first.');
      const content = await file.text();
      return call((pylon) =>
        pylon.knowledge.documents.create({ org_id: orgId, title: title.trim() || file.name, content, metadata: { filename: file.name } }),
      );
    },
    onSuccess: () => {
      setFile(null);
      setText('');
      setTitle('');
      void queryClient.invalidateQueries({ queryKey: ['documents'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    upload.mutate(undefined, { onSuccess: () => (event.target as HTMLFormElement).reset() });
  };
  const ready = source === 'file' ? !!file : text.trim().length > 0 && title.trim().length > 0;
  return (
    <section aria-labelledby="upload-heading">
      <h2 id="upload-heading">Add a document</h2>
      <form onSubmit={submit} className="stack">
        <fieldset>
          <legend>From</legend>
          <label className="check">
            <input type="radio" name="doc-source" checked={source === 'file'} onChange={() => setSource('file')} /> a .txt or .md file
          </label>
          <label className="check">
            <input type="radio" name="doc-source" checked={source === 'text'} onChange={() => setSource('text')} /> pasted text
          </label>
        </fieldset>
        {source === 'file' ? (
          <>
            <label htmlFor="doc-file">Text or Markdown file (.txt, .md)</label>
            <input
              id="doc-file"
              type="file"
              accept=".txt,.md,.markdown,text/plain,text/markdown"
              required
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
            <label htmlFor="doc-title">Title (optional; the file name otherwise)</label>
          </>
        ) : (
          <>
            <label htmlFor="doc-text">Text</label>
            <textarea id="doc-text" required rows={8} value={text} onChange={(event) => setText(event.target.value)} />
            <label htmlFor="doc-title">Title</label>
          </>
        )}
        <input id="doc-title" maxLength={500} required={source === 'text'} value={title} onChange={(event) => setTitle(event.target.value)} />
        <div>
          <button type="submit" disabled={upload.isPending || !ready}>
            {source === 'file' ? 'Upload' : 'Add document'}
          </button>
        </div>
        {upload.isPending && <p role="status">Uploading…</p>}
        {upload.isSuccess && (
          <Done>Added “{upload.data.title}”: it is being chunked and embedded; its status below turns ready when it can be searched.</Done>
        )}
        <ErrorNotice error={upload.error} />
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
  const search = useMutation({
    mutationFn: () => call((pylon) => pylon.knowledge.query({ org_id: orgId, query, mode, match_count: matchCount })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    search.mutate();
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
                  <strong>{match.title ?? match.doc_id}</strong> · chunk {match.chunk_index ?? '?'} · score{' '}
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

/** One document: what it is, how far its ingestion is, and its metadata (a run's citations link here). */
export function DocumentPage({ docId }: { docId: string }) {
  const document = useQuery({
    queryKey: ['document', docId],
    queryFn: () => call((pylon) => pylon.knowledge.documents.get(docId)),
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 1_000 : false),
  });
  const data = document.data;
  return (
    <>
      <p>
        <Link href="/knowledge">← All documents</Link>
      </p>
      <h1>Document {data ? `“${data.title}”` : ''}</h1>
      <ErrorNotice error={document.error} />
      {data && (
        <dl className="facts">
          <dt>Document id</dt>
          <dd>
            <Id value={data.doc_id} label="the document id" />
          </dd>
          <dt>Status</dt>
          <dd>
            <Status value={data.status} />
            {data.failure_reason && <> — {data.failure_reason}</>}
          </dd>
          <dt>Chunks</dt>
          <dd>{data.chunk_count}</dd>
          <dt>Added</dt>
          <dd>
            <When at={data.created_at} />
          </dd>
          <dt>Metadata</dt>
          <dd>
            <pre className="text">{JSON.stringify(data.metadata, null, 2)}</pre>
          </dd>
        </dl>
      )}
    </>
  );
}
