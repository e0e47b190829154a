import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { createConversation, listConversations, listItems, startTurn } from '../api/conversations';
import { queryKeys } from '../api/query-keys';
import type { After } from './mutation';

/** A turn the playground started: its conversation and its run. */
export interface Turn {
  conversationId: string;
  runId: string;
}

/** The organisation's conversations, newest first. */
export function useConversations() {
  return useQuery({ queryKey: queryKeys.conversations.list(), queryFn: () => listConversations() });
}

/** Every item of a conversation, oldest first (none for a new conversation, or when `enabled` is false). */
export function useConversationItems(conversationId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.conversations.items(conversationId),
    enabled: enabled && conversationId !== undefined,
    queryFn: () => listItems(conversationId!),
  });
}

/** After a turn added items (a tool call, an output, the answer): the conversation's items read again. */
export function useConversationItemsChanged(conversationId: string | undefined) {
  const queryClient = useQueryClient();
  return useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.items(conversationId) }),
    [queryClient, conversationId],
  );
}

/**
 * Sends a message: a turn of the conversation (a run of the version), in a new conversation (titled by the
 * message, then `onConversation` with its id) when there is none yet.
 */
export function useSendMessage(
  {
    orgId,
    conversationId,
    versionId,
    onConversation,
  }: { orgId: string; conversationId: string | undefined; versionId: string; onConversation: (id: string) => void },
  { onSuccess }: After<Turn, string> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: string): Promise<Turn> => {
      let id = conversationId;
      if (id === undefined) {
        id = (await createConversation(orgId, { title: input.slice(0, 80), source: 'console playground' })).conversation_id;
        void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.list() });
        onConversation(id);
      }
      const turn = await startTurn(id, { org_id: orgId, agent_version_id: versionId, input });
      return { conversationId: id, runId: turn.run_id };
    },
    onSuccess: (turn, input) => {
      const done = onSuccess?.(turn, input);
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.items(turn.conversationId) });
      return done;
    },
  });
}
