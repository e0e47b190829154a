import { useState } from 'react';
import { Link } from 'wouter';
import { useRunEvents } from '../../api/run-events';
import { PendingAction, pendingAction } from '../../components/PendingAction';
import { RunTimeline } from '../../components/RunTimeline';
import { DocsLink, ErrorNotice, ScopeNote } from '../../components/ui';
import { VersionPicker, type PickedVersion } from '../../components/VersionPicker';
import { useAgentVersion } from '../../hooks/use-agents';
import { useConversationItems, useConversationItemsChanged } from '../../hooks/use-conversations';
import { useRun } from '../../hooks/use-runs';
import { useSession } from '../../session';
import { ConversationName, ConversationPicker } from './Conversations';
import { ChatLog } from './ChatLog';
import { Composer } from './Composer';

/** Events after which the conversation has new items (a tool call, an output, the answer). */
const ITEM_EVENTS = new Set(['tool_call', 'requires_action', 'tool_result', 'tool_approval', 'succeeded', 'failed']);

/**
 * Talk to an agent version in a conversation: its items as a chat, the current turn's events live, and a
 * form for what a waiting turn needs (tool outputs, or approvals). The conversation is in the address.
 */
export function PlaygroundPage({ conversationId }: { conversationId: string | undefined }) {
  const { can } = useSession();
  const [picked, setPicked] = useState<PickedVersion>({ agentId: '', versionId: '' });
  /** The turn this page started last, to follow before the items show it. */
  const [sent, setSent] = useState<{ conversationId: string; runId: string } | null>(null);
  const items = useConversationItems(conversationId, can('runs:read'));
  const lastRunId = items.data?.at(-1)?.run_id ?? null;
  const turnRunId = conversationId === undefined ? null : sent?.conversationId === conversationId ? sent.runId : lastRunId;
  const refreshItems = useConversationItemsChanged(conversationId);
  const { events, streamError, live } = useRunEvents(turnRunId, {
    onEvent: (event) => ITEM_EVENTS.has(event.type) && refreshItems(),
    onEnd: refreshItems,
  });
  // With no version chosen yet, the version of the conversation's latest turn is shown chosen.
  const unset = picked.agentId === '' && picked.versionId === '';
  const lastTurnVersion = useLastTurnVersion(lastRunId, unset);
  const version = (unset && lastTurnVersion) || picked;

  if (!can('runs:read')) {
    return (
      <>
        <h1>Playground</h1>
        <ScopeNote>The playground shows conversations and their runs, which needs the runs:read scope too; this key does not have it.</ScopeNote>
      </>
    );
  }
  const action = pendingAction(events);
  const answered = items.data?.some((item) => item.run_id === turnRunId && item.type === 'answer') ?? false;
  const streamed = answered
    ? ''
    : events
        .filter((event) => event.type === 'output_delta')
        .map((event) => String(event.data.text ?? ''))
        .join('');
  const failed = events.find((event) => event.type === 'failed');

  return (
    <>
      <h1>Playground</h1>
      <DocsLink tag="conversations">Conversations in the API reference</DocsLink>
      <section aria-labelledby="playground-setup-heading">
        <h2 id="playground-setup-heading">Agent and conversation</h2>
        <div className="stack">
          <VersionPicker idPrefix="playground" value={version} onChange={setPicked} />
          <ConversationPicker conversationId={conversationId} />
        </div>
      </section>
      <div className="playground">
        <section aria-labelledby="chat-heading">
          <h2 id="chat-heading">
            <ConversationName conversationId={conversationId} />
          </h2>
          <ErrorNotice error={items.error} />
          <ChatLog items={items.data ?? []} streamed={streamed} />
          {failed && (
            <p className="notice error" role="alert">
              This turn failed{typeof failed.data.error === 'string' ? `: ${failed.data.error}` : ''}.
            </p>
          )}
          {action && turnRunId && <PendingAction key={action.tool_calls.map((call) => call.id).join()} runId={turnRunId} action={action} />}
          <Composer
            conversationId={conversationId}
            versionId={version.versionId}
            busy={live && turnRunId !== null ? (action ? 'waiting' : 'answering') : null}
            onSent={(turn) => setSent(turn)}
          />
        </section>
        <section aria-labelledby="turn-heading">
          <h2 id="turn-heading">This turn {live ? <span className="status status-running">live</span> : null}</h2>
          {turnRunId ? (
            <>
              <p>
                <Link href={`/runs/${turnRunId}`}>
                  Run <code>{turnRunId.slice(0, 8)}</code>
                </Link>
              </p>
              <ErrorNotice error={streamError} />
              <RunTimeline events={events} label="What this turn did, in order" />
            </>
          ) : (
            <p className="hint">
              Each message starts a run of the chosen version: a turn of the conversation. What it does shows here as it happens.
            </p>
          )}
        </section>
      </div>
    </>
  );
}

/** The version of the conversation's latest turn (looked up only while `wanted`), or null until known. */
function useLastTurnVersion(lastRunId: string | null, wanted: boolean): PickedVersion | null {
  const { can } = useSession();
  const run = useRun(lastRunId, wanted);
  const versionId = run.data?.agent_version_id;
  const version = useAgentVersion(versionId, wanted && can('agents:manage'));
  // A key that cannot list agents picks by version id alone.
  return version.data
    ? { agentId: version.data.agent_id, versionId: version.data.agent_version_id }
    : versionId && !can('agents:manage')
      ? { agentId: '', versionId }
      : null;
}
