import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pylon, ToolOutputsSubmit } from '@pylon/sdk';
import { useCallback } from 'react';
import { call, type Schemas } from '../api/client';
import { approveToolCalls, submitToolOutputs, type ToolApproval } from '../api/conversations';
import { queryKeys } from '../api/query-keys';
import { useChange, type After } from './mutation';

type RunStatus = Schemas['AgentRunView']['status'];
type RunCreate = Parameters<Pylon['agentRuns']['create']>[0];

/** Runs, newest first, one page, by status; refreshed every 5 s. */
export function useRuns(status: RunStatus | '', cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.runs.list(status, cursor),
    queryFn: () => call((pylon) => pylon.agentRuns.list({ limit: 20, ...(status ? { status } : {}) }).page(cursor)),
    refetchInterval: 5_000,
  });
}

/** One run (none while `runId` is null or `enabled` is false). */
export function useRun(runId: string | null, enabled = true) {
  return useQuery({
    queryKey: queryKeys.runs.detail(runId),
    enabled: enabled && runId !== null,
    queryFn: () => call((pylon) => pylon.agentRuns.get(runId!)),
  });
}

/** What a run's model turns took and cost; refreshed every 5 s until the run is finished. */
export function useRunUsage(runId: string, finished: boolean) {
  return useQuery({
    queryKey: queryKeys.runs.usage(runId),
    queryFn: () => call((pylon) => pylon.agentRuns.usage(runId)),
    refetchInterval: finished ? false : 5_000,
  });
}

/** After a run's stream ended: the run and its usage read again. */
export function useRunEnded(runId: string) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.runs.detail(runId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.runs.usage(runId) });
  }, [queryClient, runId]);
}

export function useStartRun({ onSuccess }: After<Awaited<ReturnType<Pylon['agentRuns']['create']>>, RunCreate> = {}) {
  const queryClient = useQueryClient();
  return useChange(
    (body: RunCreate) => call((pylon) => pylon.agentRuns.create(body)),
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.runs.lists }),
    { onSuccess },
  );
}

export function useCancelRun(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call((pylon) => pylon.agentRuns.cancel(runId)),
    onSuccess: (cancelled) => queryClient.setQueryData(queryKeys.runs.detail(runId), cancelled),
  });
}

/** Answers a run that waits for the outputs of the function calls it made. */
export function useSubmitToolOutputs(runId: string) {
  return useMutation({ mutationFn: (outputs: ToolOutputsSubmit['tool_outputs']) => submitToolOutputs(runId, outputs) });
}

/** Approves or denies each call a run waits on. */
export function useApproveToolCalls(runId: string) {
  return useMutation({ mutationFn: (approvals: ToolApproval[]) => approveToolCalls(runId, approvals) });
}
