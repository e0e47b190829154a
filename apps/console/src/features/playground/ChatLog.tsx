import { useEffect, useRef } from 'react';
import { type ConversationItem } from '../../api/conversations';
import { pretty } from '../../components/PendingAction';

/** The items as a chat, oldest first, scrolled to the newest; then the answer being written, if any. */
export function ChatLog({ items, streamed }: { items: ConversationItem[]; streamed: string }) {
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
