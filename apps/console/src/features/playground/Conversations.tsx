import { useLocation } from 'wouter';
import { conversationTitle } from '../../api/conversations';
import { ErrorNotice } from '../../components/ui';
import { useConversations } from '../../hooks/use-conversations';

/** The organisation's conversations, newest first, to continue one; or a new one. */
export function ConversationPicker({ conversationId }: { conversationId: string | undefined }) {
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

export function ConversationName({ conversationId }: { conversationId: string | undefined }) {
  const conversations = useConversations();
  if (conversationId === undefined) return <>New conversation</>;
  const found = conversations.data?.data.find((conversation) => conversation.conversation_id === conversationId);
  return <>{found ? conversationTitle(found) : `Conversation ${conversationId.slice(0, 8)}`}</>;
}
