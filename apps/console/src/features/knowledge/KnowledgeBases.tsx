import { useState, type FormEvent } from 'react';
import type { KnowledgeBase } from '../../api/knowledge';
import { useCreateKnowledgeBase, useDeleteKnowledgeBase, useKnowledgeBases } from '../../hooks/use-knowledge';
import { Done, ErrorNotice } from '../../components/ui';
import { useSession } from '../../session';

/** "Support handbook (default) · 3 documents". */
export function baseLabel(base: KnowledgeBase): string {
  return `${base.name}${base.is_default ? ' (default)' : ''} · ${base.document_count} ${base.document_count === 1 ? 'document' : 'documents'}`;
}

/**
 * Which knowledge base the page shows (and uploads into): all of them, or one; a new base made inline; the
 * chosen one deleted: at once when empty, with its documents (cascade) only after a confirm.
 */
export function KnowledgeBasePicker({ value, onChange }: { value: string; onChange: (baseId: string) => void }) {
  const { orgId, can } = useSession();
  const bases = useKnowledgeBases();
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState(false);
  const chosen = bases.data?.find((base) => base.knowledge_base_id === value);
  // The new base is listed at once, chosen; a deleted one is gone at once, and all of them shown.
  const create = useCreateKnowledgeBase({
    onSuccess: (base) => {
      setName('');
      onChange(base.knowledge_base_id);
    },
  });
  const remove = useDeleteKnowledgeBase({
    onSuccess: () => {
      setConfirming(false);
      onChange('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ org_id: orgId, name: name.trim() });
  };
  return (
    <section aria-labelledby="bases-heading">
      <h2 id="bases-heading">Knowledge bases</h2>
      <p className="hint">
        A knowledge base is a named group of documents, searchable on its own. A document that names none goes into the default one.
      </p>
      <div className="row">
        <label htmlFor="base-picker">Knowledge base</label>
        <select
          id="base-picker"
          value={value}
          onChange={(event) => {
            setConfirming(false);
            remove.reset();
            onChange(event.target.value);
          }}
        >
          <option value="">All knowledge bases</option>
          {bases.data?.map((base) => (
            <option key={base.knowledge_base_id} value={base.knowledge_base_id}>
              {baseLabel(base)}
            </option>
          ))}
        </select>
        {chosen &&
          can('kb:write') &&
          (confirming ? (
            <span role="group" aria-label={`Confirm deleting ${chosen.name}`}>
              Delete “{chosen.name}” and its {chosen.document_count} {chosen.document_count === 1 ? 'document' : 'documents'}? They stop matching at
              once.{' '}
              <button type="button" className="danger" onClick={() => remove.mutate(chosen)} disabled={remove.isPending}>
                Yes, delete them all
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => (chosen.document_count > 0 ? setConfirming(true) : remove.mutate(chosen))}
            >
              Delete<span className="visually-hidden"> the knowledge base</span> “{chosen.name}”
            </button>
          ))}
      </div>
      <ErrorNotice error={bases.error ?? remove.error} />
      {remove.isSuccess && <Done>Knowledge base deleted.</Done>}
      {can('kb:write') && (
        <form onSubmit={submit} className="row">
          <label htmlFor="base-name">New knowledge base</label>
          <input id="base-name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          <button type="submit" disabled={create.isPending || !name.trim()}>
            Create base
          </button>
        </form>
      )}
      {create.isSuccess && <Done>Knowledge base “{create.data.name}” created, and chosen.</Done>}
      <ErrorNotice error={create.error} />
    </section>
  );
}
