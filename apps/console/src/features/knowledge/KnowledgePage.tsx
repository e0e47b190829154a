import { useState } from 'react';
import { Link } from 'wouter';
import { type KnowledgeDocument } from '../../api/knowledge';
import { useDeleteDocument, useDocuments, useKnowledgeBases } from '../../hooks/use-knowledge';
import { DocsLink, ErrorNotice, ScopeNote, Status, usePager, When } from '../../components/ui';
import { ConfirmAction } from '../../components/ConfirmAction';
import { PagedTable } from '../../components/DataTable';
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
        <PagedTable
          list={documents}
          pager={pager}
          label="Documents, newest first"
          columns={['Title', 'Status', 'Chunks', 'Added', 'Actions']}
          empty="No documents yet."
          pagesLabel="Pages of documents"
          row={(document) => <DocumentRow key={document.doc_id} document={document} canDelete={can('kb:write')} />}
        />
      </section>
      <Search />
    </>
  );
}

function DocumentRow({ document, canDelete }: { document: KnowledgeDocument; canDelete: boolean }) {
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
        {canDelete && (
          <ConfirmAction
            action="Delete"
            acting="deleting"
            target={document.title}
            question="Delete it? Its chunks stop matching at once."
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        )}
        <ErrorNotice error={remove.error} />
      </td>
    </tr>
  );
}
