import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pylon, VideoGeneration } from '@pylon/sdk';
import { call } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useChange, type After } from './mutation';
import { useLedgerChanged } from './use-tokens';

type VideoCreate = Parameters<Pylon['videos']['create']>[0];

/** These generations, followed every second while one is pending or processing. */
export function useGenerations(ids: string[]) {
  return useQuery({
    queryKey: queryKeys.videos.generations(ids),
    enabled: ids.length > 0,
    queryFn: () => call((pylon) => pylon.videos.get(ids)),
    refetchInterval: (query) =>
      query.state.data?.some((generation) => generation.state === 'pending' || generation.state === 'processing') ? 1_000 : false,
  });
}

export function useGenerateVideo({ onSuccess }: After<VideoGeneration, VideoCreate> = {}) {
  const ledgerChanged = useLedgerChanged();
  return useChange((body: VideoCreate) => call((pylon) => pylon.videos.create(body)), ledgerChanged, { onSuccess });
}

export function useExtendVideo(generationId: string, { onSuccess }: After<VideoGeneration, string> = {}) {
  const ledgerChanged = useLedgerChanged();
  return useChange((prompt: string) => call((pylon) => pylon.videos.extend(generationId, { user_prompt: prompt })), ledgerChanged, { onSuccess });
}

/** Cancels a generation: it and the ledger (its refund) are read again. */
export function useCancelVideo(generationId: string) {
  const queryClient = useQueryClient();
  const ledgerChanged = useLedgerChanged();
  return useMutation({
    mutationFn: () => call((pylon) => pylon.videos.cancel(generationId)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.videos.all });
      ledgerChanged();
    },
  });
}
