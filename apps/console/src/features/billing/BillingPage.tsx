import { Link } from 'wouter';
import { VIDEO_COST, type LedgerEntry } from '../../api/ledger';
import { useLedger, useLedgerPage } from '../../hooks/use-tokens';
import { useUsage } from '../../hooks/use-usage';
import { LedgerChart } from '../../components/LedgerChart';
import { DocsLink, ErrorNotice, Id, ScopeNote, usePager, When } from '../../components/ui';
import { DataTable, PagedTable, numeric } from '../../components/DataTable';
import { useSession } from '../../session';

/** Tokens: the balance, how it moved (a chart that follows grants, debits and refunds), and the ledger as a table. */
export function BillingPage() {
  const { entries, balance } = useLedger();
  return (
    <>
      <h1>Usage & billing</h1>
      <DocsLink tag="management">Tokens in the API reference</DocsLink>
      <section aria-labelledby="balance-heading">
        <h2 id="balance-heading">Token balance</h2>
        <ErrorNotice error={balance.error ?? entries.error} />
        {balance.data && (
          <p className="figure">
            <strong data-testid="billing-balance">{balance.data.balance.toLocaleString()}</strong> tokens:{' '}
            {Math.floor(balance.data.balance / VIDEO_COST)} video generations at {VIDEO_COST.toLocaleString()} each. A run pays for its model turns at
            the model’s price (the offline models are free unless the operator prices them); knowledge search costs no tokens.
          </p>
        )}
        {entries.data && <LedgerChart entries={entries.data.data} now={entries.dataUpdatedAt} />}
      </section>
      <RunCharges />
      <LedgerTable />
    </>
  );
}

const KIND_LABEL: Record<LedgerEntry['kind'], string> = { grant: 'Grant', debit: 'Charge', refund: 'Refund' };

/** What agent runs' model turns took and were charged, over the last 24 hours and 30 days (the `models` section of GET /api/v1/usage). */
function RunCharges() {
  const { can } = useSession();
  const usage = useUsage();
  const windows = (usage.data?.windows ?? []).flatMap((window) => (window.models ? [{ name: window.window, models: window.models }] : []));
  return (
    <section aria-labelledby="run-charges-heading">
      <h2 id="run-charges-heading">Agent runs’ model turns</h2>
      {!can('runs:read') ? (
        <ScopeNote>What runs were charged needs the runs:read scope, which this key does not have.</ScopeNote>
      ) : (
        <>
          <p className="hint">Every model call of every run, its tokens, and what the runs were charged; each run’s page lists its own turns.</p>
          <ErrorNotice error={usage.error} />
          {windows.length > 0 && (
            <DataTable
              label="Model turns of agent runs, per period"
              columns={['Period', numeric('Turns'), numeric('Input tokens'), numeric('Output tokens'), numeric('Charged')]}
            >
              {windows.map(({ name, models }) => (
                <tr key={name}>
                  <th scope="row">{name === '24h' ? 'Last 24 hours' : 'Last 30 days'}</th>
                  <td className="number">{models.turns.toLocaleString()}</td>
                  <td className="number">{models.input_tokens.toLocaleString()}</td>
                  <td className="number">{models.output_tokens.toLocaleString()}</td>
                  <td className="number">{models.run_cost_tokens.toLocaleString()} tokens</td>
                </tr>
              ))}
            </DataTable>
          )}
        </>
      )}
    </section>
  );
}

function LedgerTable() {
  const pager = usePager();
  const page = useLedgerPage(pager.cursor);
  return (
    <section aria-labelledby="ledger-heading">
      <h2 id="ledger-heading">Ledger</h2>
      <p className="hint">Every change to the balance, newest first. Entries are never changed or removed: a refund is an entry of its own.</p>
      <PagedTable
        list={page}
        pager={pager}
        label="Ledger entries, newest first"
        columns={['When', 'Type', numeric('Amount'), numeric('Balance after'), 'Reason', 'For']}
        empty="No ledger entries yet: an operator grants tokens with the admin API."
        pagesLabel="Pages of ledger entries"
        row={(entry) => (
          <tr key={entry.entry_id} data-kind={entry.kind}>
            <td>
              <When at={entry.created_at} />
            </td>
            <td>{KIND_LABEL[entry.kind]}</td>
            <td className={`number delta-${entry.delta < 0 ? 'down' : 'up'}`}>
              {entry.delta > 0 ? '+' : '−'}
              {Math.abs(entry.delta).toLocaleString()}
            </td>
            <td className="number">{entry.balance_after.toLocaleString()}</td>
            <td>{entry.reason ?? <span className="muted">—</span>}</td>
            <td>
              <Reference entry={entry} />
            </td>
          </tr>
        )}
      />
    </section>
  );
}

function Reference({ entry }: { entry: LedgerEntry }) {
  if (entry.refund_of) {
    return (
      <>
        refund of charge <Id value={entry.refund_of} label="the refunded charge's entry id" />
      </>
    );
  }
  if (entry.reference_type === 'video_generation' && entry.reference_id) {
    return (
      <>
        <Link href="/videos">video generation</Link> <Id value={entry.reference_id} label="the video generation id" />
      </>
    );
  }
  if (entry.reference_type === 'agent_run' && entry.reference_id) {
    return (
      <>
        model turn of <Link href={`/runs/${entry.reference_id}`}>run {entry.reference_id.slice(0, 8)}</Link>
      </>
    );
  }
  if (entry.reference_type) return <code>{entry.reference_type}</code>;
  return <span className="muted">—</span>;
}
