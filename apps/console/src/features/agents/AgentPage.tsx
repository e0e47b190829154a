import { Link } from 'wouter';
import { useAgent, useAgentVersions } from '../../hooks/use-agents';
import { ErrorNotice, Id, Pager, TableScroll, usePager, When } from '../../components/ui';
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
