import type { Schemas } from '../../api/client';
import { useKnowledgeBases } from '../../hooks/use-knowledge';
import { ErrorNotice, ScopeNote } from '../../components/ui';
import { useSession } from '../../session';
import { baseLabel } from '../knowledge/KnowledgeBases';

type Provider = Schemas['ModelProviderView'];

/** What the chosen provider is, on whose key its runs go, and a warning when the organisation cannot run it. */
export function ModelNote({ provider }: { provider: Provider | undefined }) {
  if (!provider) return <p id="version-model-note" className="hint" />;
  if (!provider.available) {
    const why = provider.configured ? 'this server does not share its own key' : 'this server has no key of its own';
    return (
      <p id="version-model-note" className="notice error">
        The organisation has no {provider.provider} key and {why}, so a version on it cannot be created. Set the organisation’s own key on the Models
        page, or choose a local model.
      </p>
    );
  }
  return (
    <p id="version-model-note" className="hint">
      {provider.provider === 'local'
        ? 'Offline models that run on this server with no key: local/extractive answers with sentences from your knowledge, local/echo repeats the input. Neither is a language model.'
        : `Runs call ${provider.provider} on ${provider.key_source === 'organization' ? 'the organisation’s own key' : 'this server’s key'}.`}
    </p>
  );
}

export const EXAMPLE_SCHEMA = JSON.stringify(
  {
    type: 'object',
    properties: { summary: { type: 'string' }, priority: { enum: ['low', 'high'] } },
    required: ['summary', 'priority'],
  },
  null,
  2,
);

/** The schema textarea's text as a JSON object, or what is wrong with it (said next to it as it is typed). */
export function parseSchema(text: string): { value: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'A JSON Schema here is a JSON object ({…}).' };
  return { value: value as Record<string, unknown> };
}

/** A version's response format: its name and strictness, and the schema behind a disclosure; "free text" without one. */
export function ResponseFormatView({ format, version }: { format: Schemas['AgentVersionView']['response_format']; version: number }) {
  if (!format) return <span className="muted">free text</span>;
  return (
    <details className="response-format">
      <summary>
        JSON “{format.name}”{format.strict ? ', strict' : ''}
        <span className="visually-hidden"> (the schema of version {version})</span>
      </summary>
      <pre className="text">{JSON.stringify(format.schema, null, 2)}</pre>
    </details>
  );
}

/** The knowledge bases a version's knowledge_search may search (knowledge_base_ids): some of them, or, with none ticked, all. */
export function KnowledgeBaseChoice({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const { can } = useSession();
  const bases = useKnowledgeBases(can('kb:read'));
  if (!can('kb:read')) return <ScopeNote>Choosing knowledge bases needs the kb:read scope; without it the tool searches all of them.</ScopeNote>;
  return (
    <fieldset>
      <legend>Knowledge bases it searches</legend>
      <p className="hint">None ticked: all of the organisation’s knowledge bases, including those made later.</p>
      {bases.data?.map((base) => (
        <label key={base.knowledge_base_id} className="check">
          <input
            type="checkbox"
            checked={value.includes(base.knowledge_base_id)}
            onChange={(event) =>
              onChange(event.target.checked ? [...value, base.knowledge_base_id] : value.filter((id) => id !== base.knowledge_base_id))
            }
          />{' '}
          {baseLabel(base)}
        </label>
      ))}
      {bases.data?.length === 0 && <p>No knowledge bases yet: the default one is made with the first document.</p>}
      <ErrorNotice error={bases.error} />
    </fieldset>
  );
}
