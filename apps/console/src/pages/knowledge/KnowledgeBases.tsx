import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { createKnowledgeBase, deleteKnowledgeBase, useKnowledgeBases, type KnowledgeBase } from '../../api/knowledge';
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
  const queryClient = useQueryClient();
  const bases = useKnowledgeBases();
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState(false);
  const chosen = bases.data?.find((base) => base.knowledge_base_id === value);
  const create = useMutation({
    mutationFn: () => createKnowledgeBase({ org_id: orgId, name: name.trim() }),
    onSuccess: async (base) => {
      setName('');
      // Listed at once, so that the picker shows it chosen before the list is fetched again (a fetch under way,
      // from before it existed, is dropped).
      await queryClient.cancelQueries({ queryKey: ['knowledge-bases'] });
      queryClient.setQueryData<KnowledgeBase[]>(['knowledge-bases'], (bases) => [...(bases ?? []), base]);
      onChange(base.knowledge_base_id);
      void queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
    },
  });
  const remove = useMutation({
    mutationFn: (base: KnowledgeBase) => deleteKnowledgeBase(base.knowledge_base_id, base.document_count > 0),
    onSuccess: async (_, deleted) => {
      setConfirming(false);
      await queryClient.cancelQueries({ queryKey: ['knowledge-bases'] });
      queryClient.setQueryData<KnowledgeBase[]>(['knowledge-bases'], (bases) =>
        bases?.filter((base) => base.knowledge_base_id !== deleted.knowledge_base_id),
      );
      onChange('');
      void queryClient.invalidateQueries({ queryKey: ['knowledge-bases'] });
      void queryClient.invalidateQueries({ queryKey: ['documents'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
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
