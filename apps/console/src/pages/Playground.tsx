import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { conversationTitle, type ConversationItem } from '../api/conversations';
import { useRunEvents } from '../api/run-events';
import { PendingAction, pendingAction, pretty } from '../components/PendingAction';
import { RunTimeline } from '../components/RunTimeline';
import { DocsLink, ErrorNotice, ScopeNote } from '../components/ui';
import { VersionPicker, type PickedVersion } from '../components/VersionPicker';
import { useAgentVersion } from '../hooks/use-agents';
import { useConversationItems, useConversationItemsChanged, useConversations, useSendMessage } from '../hooks/use-conversations';
import { useRun } from '../hooks/use-runs';
import { useSession } from '../session';

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

/** The organisation's conversations, newest first, to continue one; or a new one. */
function ConversationPicker({ conversationId }: { conversationId: string | undefined }) {
  const [, navigate] = useLocation();
  const conversations = useConversations();
  const list = conversations.data?.data ?? [];
  return (
    <>
      <label htmlFor="playground-conversation">Conversation</label>
      <select
        id="playground-conversation"
        value={conversationId ?? ''}
        onChange={(event) => navigate(event.target.value ? `/playground/${event.target.value}` : '/playground')}
      >
        <option value="">New conversation</option>
        {conversationId && !list.some((conversation) => conversation.conversation_id === conversationId) && (
          <option value={conversationId}>Conversation {conversationId.slice(0, 8)}</option>
        )}
        {list.map((conversation) => (
          <option key={conversation.conversation_id} value={conversation.conversation_id}>
            {conversationTitle(conversation)} · {new Date(conversation.created_at).toLocaleString()}
          </option>
        ))}
      </select>
      <ErrorNotice error={conversations.error} />
    </>
  );
}

function ConversationName({ conversationId }: { conversationId: string | undefined }) {
  const conversations = useConversations();
  if (conversationId === undefined) return <>New conversation</>;
  const found = conversations.data?.data.find((conversation) => conversation.conversation_id === conversationId);
  return <>{found ? conversationTitle(found) : `Conversation ${conversationId.slice(0, 8)}`}</>;
}

/** The items as a chat, oldest first, scrolled to the newest; then the answer being written, if any. */
function ChatLog({ items, streamed }: { items: ConversationItem[]; streamed: string }) {
  const log = useRef<HTMLDivElement>(null);
  const names = new Map(items.filter((item) => item.type === 'tool_call').map((item) => [item.call_id, item.name]));
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [items.length, streamed]);
  if (items.length === 0 && !streamed) return <p className="hint">No messages yet: choose a version, write a message and send it.</p>;
  return (
    <div className="chat-log" role="log" aria-label="Messages, oldest first" tabIndex={0} ref={log}>
      <ol className="chat">
        {items.map((item) => (
          <li key={item.item_id} className={`chat-${item.type}`}>
            <ChatItem item={item} callName={names.get(item.call_id) ?? null} />
          </li>
        ))}
        {streamed && (
          <li className="chat-streaming">
            <span className="who">Agent (writing…)</span>
            <p className="said">{streamed}</p>
          </li>
        )}
      </ol>
    </div>
  );
}

function ChatItem({ item, callName }: { item: ConversationItem; callName: string | null }) {
  switch (item.type) {
    case 'input':
      return (
        <>
          <span className="who">You</span>
          <p className="said">{item.text}</p>
        </>
      );
    case 'answer':
      return (
        <>
          <span className="who">Agent</span>
          <p className="said">{item.text}</p>
        </>
      );
    case 'tool_call':
      return (
        <>
          <span className="who">Called {item.name}</span>
          <pre>{pretty(item.arguments)}</pre>
        </>
      );
    case 'tool_output':
      return (
        <>
          <span className="who">Output of {callName ?? 'a tool call'}</span>
          <pre>{pretty(item.output)}</pre>
        </>
      );
  }
}

/** The message box: starts the conversation with the first message, and a turn with each. */
function Composer({
  conversationId,
  versionId,
  busy,
  onSent,
}: {
  conversationId: string | undefined;
  versionId: string;
  busy: 'answering' | 'waiting' | null;
  onSent: (turn: { conversationId: string; runId: string }) => void;
}) {
  const { orgId } = useSession();
  const [, navigate] = useLocation();
  const [message, setMessage] = useState('');
  const send = useSendMessage(
    {
      orgId,
      conversationId,
      versionId,
      // The address names the conversation from now on; the focus stays in the message box.
      onConversation: (id) => navigate(`/playground/${id}`, { replace: true, state: { keepFocus: true } }),
    },
    {
      onSuccess: (turn) => {
        setMessage('');
        onSent(turn);
      },
    },
  );
  const blocked = versionId === '' || busy !== null || send.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocked && message.trim() !== '') send.mutate(message);
  };
  // Enter sends, Shift+Enter starts a new line.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  };
  return (
    <form onSubmit={submit} className="stack composer">
      <label htmlFor="playground-message">Message</label>
      <textarea
        id="playground-message"
        required
        rows={3}
        maxLength={32_000}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby="playground-message-hint"
      />
      <p id="playground-message-hint" className="hint">
        {versionId === ''
          ? 'Choose an agent version above first.'
          : busy === 'waiting'
            ? 'The agent waits for your answer above; the next message can go once this turn ends.'
            : busy === 'answering'
              ? 'The agent is answering; the next message can go once this turn ends.'
              : 'Enter sends; Shift+Enter starts a new line.'}
      </p>
      <div>
        <button type="submit" disabled={blocked}>
          Send
        </button>
      </div>
      <ErrorNotice error={send.error} />
    </form>
  );
}
