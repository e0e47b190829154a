import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { formatBytes, type KnowledgeDocument } from '../../api/knowledge';
import type { UploadProgress } from '../../api/uploads';
import { Done, ErrorNotice, Id, Status, When } from '../../components/ui';
import { Fact, Facts } from '../../components/Facts';
import { RadioChoice } from '../../components/RadioChoice';
import { useDocument, useDownloadDocumentFile, useKnowledgeBases, useReplaceDocument } from '../../hooks/use-knowledge';
import { useSession } from '../../session';
import { ACCEPTED_FILES } from './FileUploads';

const SOURCES = [
  { value: 'file', label: 'a new file' },
  { value: 'text', label: 'new text' },
] as const;

/**
 * One document: what it is, its revision and the one search answers from, its file (downloaded with the key),
 * its metadata, and Replace with a new file or text (a run's citations link here).
 */
export function DocumentPage({ docId }: { docId: string }) {
  const { can } = useSession();
  const document = useDocument(docId);
  const bases = useKnowledgeBases();
  const data = document.data;
  const base = data && bases.data?.find((candidate) => candidate.knowledge_base_id === data.knowledge_base_id);
  return (
    <>
      <p>
        <Link href="/knowledge">← All documents</Link>
      </p>
      <h1>Document {data ? `“${data.title}”` : ''}</h1>
      <ErrorNotice error={document.error} />
      {data && (
        <Facts>
          <Fact term="Document id">
            <Id value={data.doc_id} label="the document id" />
          </Fact>
          <Fact term="Status">
            <Status value={data.status} />
            {data.failure_reason && <> — {data.failure_reason}</>}
          </Fact>
          <Fact term="Revision" data-testid="document-revision">
            {data.revision}
            <RevisionNote document={data} />
          </Fact>
          <Fact term="Search answers from" data-testid="document-ready-revision">
            {data.ready_revision === null ? 'no revision yet' : `revision ${data.ready_revision}`}
          </Fact>
          <Fact term="Knowledge base">{base ? `${base.name}${base.is_default ? ' (default)' : ''}` : <code>{data.knowledge_base_id}</code>}</Fact>
          <Fact term="Chunks">{data.chunk_count}</Fact>
          <Fact term="File">{data.file ? <FileFacts document={data} /> : 'none: made from text'}</Fact>
          <Fact term="Added">
            <When at={data.created_at} />
          </Fact>
          <Fact term="Updated">
            <When at={data.updated_at} />
          </Fact>
          <Fact term="Metadata">
            <pre className="text">{JSON.stringify(data.metadata, null, 2)}</pre>
          </Fact>
        </Facts>
      )}
      {data && can('kb:write') && <Replace document={data} />}
    </>
  );
}

/** Whether search serves this revision yet, or still the one before it. */
function RevisionNote({ document }: { document: KnowledgeDocument }) {
  if (document.ready_revision === document.revision) return <> (searchable)</>;
  if (document.status === 'failed')
    return (
      <>
        {' '}
        (failed; search {document.ready_revision === null ? 'has nothing from this document' : `still serves revision ${document.ready_revision}`})
      </>
    );
  return (
    <>
      {' '}
      (being processed; search{' '}
      {document.ready_revision === null ? 'finds it once it is ready' : `serves revision ${document.ready_revision} until it is ready`})
    </>
  );
}

/** The file's name, type and size, and a download: fetched with the key (a header) as a Blob, offered as an object URL. */
function FileFacts({ document }: { document: KnowledgeDocument }) {
  const file = document.file!;
  const name = file.name ?? `document-${document.doc_id}`;
  // The download of one revision: a new revision has another file, so the old download goes.
  const [saved, setSaved] = useState<{ revision: number; url: string } | null>(null);
  const url = saved?.revision === document.revision ? saved.url : null;
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const revision = document.revision;
  const download = useDownloadDocumentFile(document.doc_id, { onSuccess: ({ blob }) => setSaved({ revision, url: URL.createObjectURL(blob) }) });
  return (
    <>
      <span data-testid="document-file">
        {name} · {file.type} ({file.media_type}) · {formatBytes(file.size_bytes)}
      </span>{' '}
      {url ? (
        <a href={url} download={name}>
          Save {name}
        </a>
      ) : (
        <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
          Download<span className="visually-hidden"> {name}</span>
        </button>
      )}
      {download.isPending && <span role="status"> Downloading…</span>}
      <ErrorNotice error={download.error} />
    </>
  );
}

/** A new revision from a file (with its upload's progress) or from text; the document keeps its id. */
function Replace({ document }: { document: KnowledgeDocument }) {
  const { orgId } = useSession();
  const [source, setSource] = useState<'file' | 'text'>(document.file ? 'file' : 'text');
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const replace = useReplaceDocument(document.doc_id, {
    onSuccess: () => {
      setText('');
      setFile(null);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    replace.mutate(source === 'text' ? { orgId, text } : { file, onProgress: setProgress }, {
      onSuccess: () => (event.target as HTMLFormElement).reset(),
    });
  };
  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0;
  return (
    <section aria-labelledby="replace-heading">
      <h2 id="replace-heading">Replace</h2>
      <p className="hint">
        A replacement is a new revision of this document, with the same id. Search keeps answering from the current revision until the new one is
        ready; if the new one fails, the current one stays.
      </p>
      <form onSubmit={submit} className="stack">
        <RadioChoice legend="With" name="replace-source" value={source} onChange={setSource} options={SOURCES} />
        {source === 'file' ? (
          <>
            <label htmlFor="replace-file">New file (PDF, DOCX, HTML, Markdown, text)</label>
            <input id="replace-file" type="file" accept={ACCEPTED_FILES} required onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
          </>
        ) : (
          <>
            <label htmlFor="replace-text">New text</label>
            <textarea id="replace-text" required rows={6} value={text} onChange={(event) => setText(event.target.value)} />
          </>
        )}
        <div>
          <button type="submit" disabled={replace.isPending || (source === 'file' ? !file : !text.trim())}>
            Replace
          </button>
        </div>
        {replace.isPending && source === 'file' && progress && (
          <p>
            <progress aria-label="Upload of the new file" value={percent} max={100} /> {percent} % uploaded
          </p>
        )}
        {replace.isSuccess && (
          <Done>
            Revision {replace.data.revision} accepted
            {replace.data.ready_revision !== null && replace.data.ready_revision !== replace.data.revision
              ? `: search serves revision ${replace.data.ready_revision} until it is ready.`
              : '.'}
          </Done>
        )}
        <ErrorNotice error={replace.error} />
      </form>
    </section>
  );
}
