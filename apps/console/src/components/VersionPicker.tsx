import { useAgentChoices, useAgentVersionChoices } from '../hooks/use-agents';
import { useSession } from '../session';
import { ErrorNotice, ScopeNote } from './ui';

/** A tool of a version as the API shows it (knowledge_search, or a function tool the caller runs). */
interface ToolView {
  type: string;
  match_count?: number;
  require_approval?: string;
  name?: string;
  server_label?: string;
  allowed_tools?: string[] | null;
  headers?: Record<string, string>;
}

/** "knowledge_search (6), lookup_order (function)", or "none". */
export function describeTools(tools: readonly ToolView[] | null | undefined): string {
  if (!tools || tools.length === 0) return 'none';
  return tools
    .map((tool) =>
      tool.type === 'function'
        ? `${tool.name} (function)`
        : tool.type === 'mcp'
          ? describeMcpTool(tool)
          : `${tool.type} (${tool.match_count}${knowledgeBasesOf(tool)}${tool.require_approval === 'always' ? ', needs approval' : ''})`,
    )
    .join(', ');
}

/** ", in 2 knowledge bases" when the search is limited to some (knowledge_base_ids); nothing when it searches all. */
function knowledgeBasesOf(tool: ToolView): string {
  const ids = (tool as { knowledge_base_ids?: string[] | null }).knowledge_base_ids;
  if (!ids || ids.length === 0) return '';
  return `, in ${ids.length} ${ids.length === 1 ? 'knowledge base' : 'knowledge bases'}`;
}

/** "docs (mcp: search, fetch; Authorization: ********, needs approval)": the headers only as the API shows them, masked. */
function describeMcpTool(tool: ToolView): string {
  const parts = [tool.allowed_tools?.length ? tool.allowed_tools.join(', ') : 'all tools'];
  const headers = Object.entries(tool.headers ?? {}).map(([name, masked]) => `${name}: ${masked}`);
  if (headers.length > 0) parts.push(headers.join(', '));
  if (tool.require_approval === 'always') parts.push('needs approval');
  return `${tool.server_label} (mcp: ${parts.join('; ')})`;
}

export interface PickedVersion {
  agentId: string;
  versionId: string;
}

/**
 * An agent, then one of its versions (newest first), as two labelled selects "Agent" and "Version"; a key
 * without agents:manage cannot list them and pastes a version id instead.
 */
export function VersionPicker({ idPrefix, value, onChange }: { idPrefix: string; value: PickedVersion; onChange: (picked: PickedVersion) => void }) {
  const { can } = useSession();
  const canPick = can('agents:manage');
  const agents = useAgentChoices(canPick);
  const versions = useAgentVersionChoices(value.agentId, canPick);
  if (!canPick) {
    return (
      <>
        <ScopeNote>Listing agents needs the agents:manage scope, which this key does not have: paste an agent version id instead.</ScopeNote>
        <label htmlFor={`${idPrefix}-version-id`}>Agent version id</label>
        <input
          id={`${idPrefix}-version-id`}
          required
          value={value.versionId}
          onChange={(event) => onChange({ agentId: '', versionId: event.target.value.trim() })}
        />
      </>
    );
  }
  return (
    <>
      <label htmlFor={`${idPrefix}-agent`}>Agent</label>
      <select id={`${idPrefix}-agent`} required value={value.agentId} onChange={(event) => onChange({ agentId: event.target.value, versionId: '' })}>
        <option value="">Choose an agent</option>
        {agents.data?.data.map((agent) => (
          <option key={agent.agent_id} value={agent.agent_id}>
            {agent.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${idPrefix}-version`}>Version</label>
      <select
        id={`${idPrefix}-version`}
        required
        value={value.versionId}
        onChange={(event) => onChange({ agentId: value.agentId, versionId: event.target.value })}
        disabled={!versions.data}
      >
        <option value="">Choose a version</option>
        {versions.data?.data.map((version) => (
          <option key={version.agent_version_id} value={version.agent_version_id}>
            v{version.version} · {version.model} · tools: {describeTools(version.tools)}
          </option>
        ))}
      </select>
      <ErrorNotice error={agents.error ?? versions.error} />
    </>
  );
}
