import { useState } from 'react';
import { Link } from 'wouter';
import { type KnowledgeDocument } from '../../api/knowledge';
import { useDeleteDocument, useDocuments, useKnowledgeBases } from '../../hooks/use-knowledge';
import { DocsLink, ErrorNotice, Pager, ScopeNote, Status, usePager, When, TableScroll } from '../../components/ui';
import { useSession } from '../../session';
import { FileUploads } from './FileUploads';
import { KnowledgeBasePicker } from './KnowledgeBases';
import { AddText } from './AddText';
import { Search } from './Search';

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
