import { useId, useState, type DragEvent } from 'react';
import { Link } from 'wouter';
import { uploadFile, type KnowledgeDocument } from '../../api/knowledge';
import type { UploadProgress } from '../../api/uploads';
import { ErrorNotice, Status } from '../../components/ui';
import { useDocumentsChanged, useFollowedDocument, useFollowedDocuments } from '../../hooks/use-knowledge';

/** The types the API takes (it recognises each file from its bytes; these only narrow the file chooser). */
export const ACCEPTED_FILES = '.pdf,.docx,.html,.htm,.md,.markdown,.txt,application/pdf,text/html,text/markdown,text/plain';

interface Upload {
  key: number;
  file: File;
  progress: UploadProgress;
  document: KnowledgeDocument | null;
  error: unknown;
}

let nextKey = 0;

/**
 * Several files at once, dropped on the zone or chosen with its file input: each is sent as its own upload
 * (POST /knowledge/files through XMLHttpRequest), so each has its own progress bar of bytes sent, then its
 * document's status followed until ready or failed. (A batch is one request, whose progress is of all
 * the files together; separate uploads give each file's progress honestly.)
 */
export function FileUploads({ knowledgeBaseId, baseName }: { knowledgeBaseId: string; baseName: string }) {
  const id = useId();
  const documentsChanged = useDocumentsChanged();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);

  const update = (key: number, change: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));

  const start = (files: FileList | File[]) => {
    const added = [...files].map((file) => ({ key: nextKey++, file, progress: { sent: 0, total: file.size }, document: null, error: null }));
    if (added.length === 0) return;
    setUploads((current) => [...added, ...current]);
    for (const upload of added) {
      uploadFile(upload.file, { knowledgeBaseId: knowledgeBaseId || undefined }, (progress) => update(upload.key, { progress })).then(
        (document) => {
          update(upload.key, { document, progress: { sent: upload.file.size, total: upload.file.size } });
          documentsChanged();
        },
        (error: unknown) => update(upload.key, { error }),
      );
    }
  };

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    start(event.dataTransfer.files);
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Add files</h2>
      <div
        className={dragging ? 'drop-zone dragging' : 'drop-zone'}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <p>
          Drop files here, or choose them: PDF, Word (.docx), HTML, Markdown or text. They go into <strong>{baseName}</strong>.
        </p>
        <label htmlFor={`${id}-files`}>Files (PDF, DOCX, HTML, Markdown, text)</label>
        <input
          id={`${id}-files`}
          type="file"
          multiple
          accept={ACCEPTED_FILES}
          onChange={(event) => {
            if (event.target.files) start(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      {uploads.length > 0 && <UploadsSummary uploads={uploads} />}
      {uploads.length > 0 && (
        <ul className="uploads" aria-label="Uploads, newest first">
          {uploads.map((upload) => (
            <UploadItem key={upload.key} upload={upload} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** All the files added on this page so far, as one progress: how many are done (ready, failed or refused) of all. */
function UploadsSummary({ uploads }: { uploads: Upload[] }) {
  const followed = useFollowedDocuments(uploads.map((upload) => upload.document?.doc_id));
  const statuses = uploads.map((upload, i) => (followed[i]?.data ?? upload.document)?.status);
  const ready = statuses.filter((status) => status === 'ready').length;
  const failed = statuses.filter((status) => status === 'failed').length;
  const refused = uploads.filter((upload) => upload.error).length;
  const done = ready + failed + refused;
  const parts = [
    `${ready} ready`,
    failed > 0 && `${failed} failed`,
    refused > 0 && `${refused} refused`,
    done < uploads.length && `${uploads.length - done} in progress`,
  ];
  return (
    <p role="status">
      <progress aria-label="All files added" value={done} max={uploads.length} /> {uploads.length} {uploads.length === 1 ? 'file' : 'files'}:{' '}
      {parts.filter(Boolean).join(', ')}
    </p>
  );
}

/** One file: its upload's progress, then its document's status until ready or failed (with the reason). */
function UploadItem({ upload }: { upload: Upload }) {
  const followed = useFollowedDocument(upload.document?.doc_id);
  const document = followed.data ?? upload.document;
  const name = upload.file.name;
  const percent = upload.progress.total > 0 ? Math.min(100, Math.round((upload.progress.sent / upload.progress.total) * 100)) : 0;
  return (
    <li>
      <p>
        <strong>{document ? <Link href={`/knowledge/${document.doc_id}`}>{name}</Link> : name}</strong>{' '}
        <progress aria-label={`Upload of ${name}`} value={percent} max={100} /> {percent} % uploaded
        {document && (
          <>
            {' '}
            · <Status value={document.status} />
            {document.status === 'processing' && (
              <>
                {' '}
                <progress aria-label={`Ingesting ${name}`} />
              </>
            )}
            {document.failure_reason && <> — {document.failure_reason}</>}
          </>
        )}
      </p>
      <ErrorNotice error={upload.error} />
    </li>
  );
}
