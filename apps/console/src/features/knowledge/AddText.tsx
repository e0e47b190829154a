import { useState, type FormEvent } from 'react';
import { useAddDocument } from '../../hooks/use-knowledge';
import { Done, ErrorNotice } from '../../components/ui';
import { useSession } from '../../session';

/** Adds a document from pasted text (POST /knowledge/documents), into the chosen base (the default when all are shown). */
export function AddText({ knowledgeBaseId }: { knowledgeBaseId: string }) {
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
