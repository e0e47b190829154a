import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useCreateAgentVersion, useModelProviders } from '../../hooks/use-agents';
import { Done, ErrorNotice } from '../../components/ui';
import { Submit } from '../../components/Submit';
import { McpToolFields, mcpTool, type McpServerDraft } from '../../components/McpToolFields';
import { EXAMPLE_SCHEMA, KnowledgeBaseChoice, ModelNote, parseSchema } from './VersionFields';

export function CreateVersion({ agentId }: { agentId: string }) {
  const providers = useModelProviders();
  const [model, setModel] = useState('local/extractive');
  const [hostedName, setHostedName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [temperature, setTemperature] = useState('');
  const [runTimeout, setRunTimeout] = useState('');
  const [searchKnowledge, setSearchKnowledge] = useState(true);
  const [matchCount, setMatchCount] = useState('6');
  const [knowledgeBaseIds, setKnowledgeBaseIds] = useState<string[]>([]);
  const [structured, setStructured] = useState(false);
  const [formatName, setFormatName] = useState('answer');
  const [schemaText, setSchemaText] = useState(EXAMPLE_SCHEMA);
  const [strict, setStrict] = useState(true);
  const schema = structured ? parseSchema(schemaText) : null;
  const [mcpServers, setMcpServers] = useState<McpServerDraft[]>([]);
  const list = providers.data?.data ?? [];
  // A provider that takes any model name is chosen as "provider/"; its model name is typed.
  const provider = list.find((candidate) => model === `${candidate.provider}/` || candidate.models?.includes(model));
  const modelId = provider && provider.models === null ? `${provider.provider}/${hostedName.trim()}` : model;
  const create = useCreateAgentVersion(agentId, {
    onSuccess: () => {
      setInstructions('');
      setMcpServers([]);
      setKnowledgeBaseIds([]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      model: modelId,
      instructions,
      ...(temperature ? { temperature: Number(temperature) } : {}),
      ...(runTimeout ? { run_timeout_seconds: Number(runTimeout) } : {}),
      tools: [
        ...(searchKnowledge
          ? [
              {
                type: 'knowledge_search' as const,
                match_count: Number(matchCount),
                // None chosen: it searches every knowledge base of the organisation.
                ...(knowledgeBaseIds.length > 0 ? { knowledge_base_ids: knowledgeBaseIds } : {}),
              },
            ]
          : []),
        ...mcpServers.map(mcpTool),
      ],
      ...(schema && 'value' in schema
        ? { response_format: { type: 'json_schema' as const, name: formatName.trim(), schema: schema.value, strict } }
        : {}),
    });
  };
  return (
    <section aria-labelledby="create-version-heading">
      <h2 id="create-version-heading">New version</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor="version-model">Model</label>
        <select id="version-model" value={model} onChange={(event) => setModel(event.target.value)} aria-describedby="version-model-note">
          {list.map((candidate) => (
            <optgroup key={candidate.provider} label={`${candidate.provider}${candidate.available ? '' : ' (needs a key: see Models)'}`}>
              {(candidate.models ?? [`${candidate.provider}/`]).map((id) => (
                <option key={id} value={id}>
                  {candidate.models ? id : `${candidate.provider}/… (type a model name)`}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <ModelNote provider={provider} />
        {provider?.models === null && (
          <>
            <label htmlFor="version-hosted-model">{provider.provider} model name</label>
            <input
              id="version-hosted-model"
              required
              maxLength={200}
              value={hostedName}
              onChange={(event) => setHostedName(event.target.value)}
              placeholder="gpt-4o-mini"
            />
          </>
        )}
        <label htmlFor="version-instructions">Instructions</label>
        <textarea
          id="version-instructions"
          rows={4}
          maxLength={32_000}
          value={instructions}
          onChange={(event) => setInstructions(event.target.value)}
          placeholder="You answer questions about our product from its documentation."
        />
        <label htmlFor="version-temperature">Temperature (optional, 0–2)</label>
        <input
          id="version-temperature"
          type="number"
          min={0}
          max={2}
          step={0.1}
          value={temperature}
          onChange={(event) => setTemperature(event.target.value)}
        />
        <label htmlFor="version-timeout">Run timeout in seconds (optional)</label>
        <input id="version-timeout" type="number" min={1} max={86_400} value={runTimeout} onChange={(event) => setRunTimeout(event.target.value)} />
        <label className="check">
          <input type="checkbox" checked={searchKnowledge} onChange={(event) => setSearchKnowledge(event.target.checked)} /> May search the
          organisation’s knowledge (the knowledge_search tool)
        </label>
        {searchKnowledge && (
          <>
            <label htmlFor="version-matches">Matches per search</label>
            <input id="version-matches" type="number" min={1} max={50} value={matchCount} onChange={(event) => setMatchCount(event.target.value)} />
            <KnowledgeBaseChoice value={knowledgeBaseIds} onChange={setKnowledgeBaseIds} />
          </>
        )}
        <McpToolFields servers={mcpServers} onChange={setMcpServers} />
        <label className="check">
          <input type="checkbox" checked={structured} onChange={(event) => setStructured(event.target.checked)} /> Answers JSON that matches a schema
          (a response format)
        </label>
        {structured && (
          <fieldset className="stack">
            <legend>Response format</legend>
            <label htmlFor="version-format-name">Name</label>
            <input
              id="version-format-name"
              required
              maxLength={64}
              pattern="[A-Za-z0-9_\-]{1,64}"
              value={formatName}
              onChange={(event) => setFormatName(event.target.value)}
              aria-describedby="version-format-name-hint"
            />
            <p id="version-format-name-hint" className="hint">
              Letters, digits, _ and -.
            </p>
            <label htmlFor="version-format-schema">JSON Schema of the answer</label>
            <textarea
              id="version-format-schema"
              className="code"
              rows={8}
              spellCheck={false}
              value={schemaText}
              onChange={(event) => setSchemaText(event.target.value)}
              aria-invalid={schema !== null && 'error' in schema}
              aria-describedby="version-format-schema-note"
            />
            {schema && 'error' in schema ? (
              <p id="version-format-schema-note" className="notice error">
                {schema.error}
              </p>
            ) : (
              <p id="version-format-schema-note" className="hint">
                Checked when the version is created. The offline local/extractive fills only a flat object of strings, numbers, integers, booleans and
                enums.
              </p>
            )}
            <label className="check">
              <input type="checkbox" checked={strict} onChange={(event) => setStrict(event.target.checked)} /> Strict (OpenAI’s strict mode; every
              answer is checked against the schema either way)
            </label>
          </fieldset>
        )}
        <Submit disabled={create.isPending || !provider?.available || (schema !== null && 'error' in schema)} error={providers.error ?? create.error}>
          Create version
        </Submit>
        {create.data && (
          <Done>
            Version {create.data.version} created with <code>{create.data.model}</code>: start a run of it on the <Link href="/runs">Runs</Link> page.
          </Done>
        )}
      </form>
    </section>
  );
}
