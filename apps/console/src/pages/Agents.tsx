import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { Schemas } from '../api/client';
import { useAgent, useAgents, useAgentVersions, useCreateAgent, useCreateAgentVersion, useModelProviders } from '../hooks/use-agents';
import { useKnowledgeBases } from '../hooks/use-knowledge';
import { DocsLink, Done, ErrorNotice, Id, Pager, ScopeNote, TableScroll, usePager, When } from '../components/ui';
import { describeTools } from '../components/VersionPicker';
import { McpToolFields, mcpTool, type McpServerDraft } from '../components/McpToolFields';
import { useSession } from '../session';
import { baseLabel } from './knowledge/KnowledgeBases';

/** The organisation's agents: list and create; each agent's versions on its own page. */
export function AgentsPage() {
  const pager = usePager();
  const agents = useAgents(pager.cursor);
  return (
    <>
      <h1>Agents</h1>
      <DocsLink tag="management">Agents in the API reference</DocsLink>
      <CreateAgent />
      <section aria-labelledby="agents-heading">
        <h2 id="agents-heading">Agents</h2>
        <ErrorNotice error={agents.error} />
        {agents.data && agents.data.data.length > 0 && (
          <TableScroll label="Agents, newest first">
            <table>
              <caption className="visually-hidden">Agents, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Agent id</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {agents.data.data.map((agent) => (
                  <tr key={agent.agent_id}>
                    <td>
                      <Link href={`/agents/${agent.agent_id}`}>{agent.name}</Link>
                    </td>
                    <td>
                      <Id value={agent.agent_id} label={`the id of ${agent.name}`} />
                    </td>
                    <td>
                      <When at={agent.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {agents.data?.data.length === 0 && <p>No agents yet: create one above, then give it a version.</p>}
        <Pager pager={pager} nextCursor={agents.data?.next_cursor} label="Pages of agents" />
      </section>
    </>
  );
}

function CreateAgent() {
  const { orgId } = useSession();
  const [name, setName] = useState('');
  const create = useCreateAgent({ onSuccess: () => setName('') });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ org_id: orgId, name });
  };
  return (
    <section aria-labelledby="create-agent-heading">
      <h2 id="create-agent-heading">Create an agent</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor="agent-name">Name</label>
        <input id="agent-name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        <div>
          <button type="submit" disabled={create.isPending}>
            Create agent
          </button>
        </div>
        <ErrorNotice error={create.error} />
        {create.data && (
          <Done>
            Agent “{create.data.name}” created. <Link href={`/agents/${create.data.agent_id}`}>Give it a first version</Link>.
          </Done>
        )}
      </form>
    </section>
  );
}

/** One agent: its immutable versions, and a form for the next one. */
export function AgentPage({ agentId }: { agentId: string }) {
  const agent = useAgent(agentId);
  const pager = usePager();
  const versions = useAgentVersions(agentId, pager.cursor);
  return (
    <>
      <p>
        <Link href="/agents">← All agents</Link>
      </p>
      <h1>Agent {agent.data ? `“${agent.data.name}”` : ''}</h1>
      <ErrorNotice error={agent.error} />
      {agent.data && (
        <dl className="facts">
          <dt>Agent id</dt>
          <dd>
            <Id value={agent.data.agent_id} label="the agent id" />
          </dd>
          <dt>Created</dt>
          <dd>
            <When at={agent.data.created_at} />
          </dd>
        </dl>
      )}
      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <p className="hint">A version never changes: runs name the version they ran, so a new prompt or model is a new version.</p>
        <ErrorNotice error={versions.error} />
        {versions.data && versions.data.data.length > 0 && (
          <TableScroll label="Versions, newest first">
            <table>
              <caption className="visually-hidden">Versions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Model</th>
                  <th scope="col">Instructions</th>
                  <th scope="col">Tools</th>
                  <th scope="col">Answers</th>
                  <th scope="col">Version id</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {versions.data.data.map((version) => (
                  <tr key={version.agent_version_id}>
                    <td>v{version.version}</td>
                    <td>
                      <code>{version.model}</code>
                    </td>
                    <td>
                      <span className="clip" title={version.instructions}>
                        {version.instructions || <span className="muted">none</span>}
                      </span>
                    </td>
                    <td>{describeTools(version.tools)}</td>
                    <td>
                      <ResponseFormatView format={version.response_format} version={version.version} />
                    </td>
                    <td>
                      <Id value={version.agent_version_id} label={`the id of version ${version.version}`} />
                    </td>
                    <td>
                      <When at={version.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {versions.data?.data.length === 0 && <p>No versions yet: an agent runs only as one of its versions.</p>}
        <Pager pager={pager} nextCursor={versions.data?.next_cursor} label="Pages of versions" />
      </section>
      <CreateVersion agentId={agentId} />
    </>
  );
}

type Provider = Schemas['ModelProviderView'];

function CreateVersion({ agentId }: { agentId: string }) {
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
            <optgroup key={candidate.provider} label={`${candidate.provider}${candidate.configured ? '' : ' (not configured on this server)'}`}>
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
        <div>
          <button type="submit" disabled={create.isPending || !provider || (schema !== null && 'error' in schema)}>
            Create version
          </button>
        </div>
        <ErrorNotice error={providers.error ?? create.error} />
        {create.data && (
          <Done>
            Version {create.data.version} created with <code>{create.data.model}</code>: start a run of it on the <Link href="/runs">Runs</Link> page.
          </Done>
        )}
      </form>
    </section>
  );
}

/** What the chosen provider is, and a warning when this server cannot run it. */
function ModelNote({ provider }: { provider: Provider | undefined }) {
  if (!provider) return <p id="version-model-note" className="hint" />;
  if (!provider.configured) {
    return (
      <p id="version-model-note" className="notice error">
        This server has no {provider.provider} credentials (for OpenAI: OPENAI_API_KEY), so runs of this version would fail at once. Ask the operator
        to configure it, or choose a local model.
      </p>
    );
  }
  return (
    <p id="version-model-note" className="hint">
      {provider.provider === 'local'
        ? 'Offline models that run on this server with no key: local/extractive answers with sentences from your knowledge, local/echo repeats the input. Neither is a language model.'
        : `Configured on this server: runs call ${provider.provider}.`}
    </p>
  );
}

const EXAMPLE_SCHEMA = JSON.stringify(
  {
    type: 'object',
    properties: { summary: { type: 'string' }, priority: { enum: ['low', 'high'] } },
    required: ['summary', 'priority'],
  },
  null,
  2,
);

/** The schema textarea's text as a JSON object, or what is wrong with it (said next to it as it is typed). */
function parseSchema(text: string): { value: Record<string, unknown> } | { error: string } {
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
function ResponseFormatView({ format, version }: { format: Schemas['AgentVersionView']['response_format']; version: number }) {
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
function KnowledgeBaseChoice({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
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
