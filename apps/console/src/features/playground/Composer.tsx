import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { ErrorNotice } from '../../components/ui';
import { Submit } from '../../components/Submit';
import { useSendMessage } from '../../hooks/use-conversations';
import { useSession } from '../../session';

/** The message box: starts the conversation with the first message, and a turn with each. */
export function Composer({
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
      <Submit disabled={blocked} error={send.error}>
        Send
      </Submit>
    </form>
  );
}
