import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useAgents, useCreateAgent } from '../../hooks/use-agents';
import { DocsLink, Done, Id, usePager, When } from '../../components/ui';
import { PagedTable } from '../../components/DataTable';
import { Submit } from '../../components/Submit';
import { useSession } from '../../session';

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
        <PagedTable
          list={agents}
          pager={pager}
          label="Agents, newest first"
          columns={['Name', 'Agent id', 'Created']}
          empty="No agents yet: create one above, then give it a version."
          pagesLabel="Pages of agents"
          row={(agent) => (
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
          )}
        />
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
        <Submit disabled={create.isPending} error={create.error}>
          Create agent
        </Submit>
        {create.data && (
          <Done>
            Agent “{create.data.name}” created. <Link href={`/agents/${create.data.agent_id}`}>Give it a first version</Link>.
          </Done>
        )}
      </form>
    </section>
  );
}
