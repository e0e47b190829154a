import { Link } from 'wouter';
import { useAgent, useAgentVersions } from '../../hooks/use-agents';
import { ErrorNotice, Id, usePager, When } from '../../components/ui';
import { PagedTable } from '../../components/DataTable';
import { Fact, Facts } from '../../components/Facts';
import { describeTools } from '../../components/VersionPicker';
import { CreateVersion } from './CreateVersion';
import { ResponseFormatView } from './VersionFields';

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
        <Facts>
          <Fact term="Agent id">
            <Id value={agent.data.agent_id} label="the agent id" />
          </Fact>
          <Fact term="Created">
            <When at={agent.data.created_at} />
          </Fact>
        </Facts>
      )}
      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <p className="hint">A version never changes: runs name the version they ran, so a new prompt or model is a new version.</p>
        <PagedTable
          list={versions}
          pager={pager}
          label="Versions, newest first"
          columns={['Version', 'Model', 'Instructions', 'Tools', 'Answers', 'Version id', 'Created']}
          empty="No versions yet: an agent runs only as one of its versions."
          pagesLabel="Pages of versions"
          row={(version) => (
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
          )}
        />
      </section>
      <CreateVersion agentId={agentId} />
    </>
  );
}
