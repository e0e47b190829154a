import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AgentSchedule, AgentScheduleCreate } from '@pylon/sdk';
import { call } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useChange, type After } from './mutation';

/** The schedules, one page of 20, refreshed every 5 s (their next runs move). */
export function useSchedules(cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.schedules.list(cursor),
    queryFn: () => call((pylon) => pylon.agentSchedules.list({ limit: 20 }).page(cursor)),
    refetchInterval: 5_000,
  });
}

export function useSchedule(scheduleId: string) {
  return useQuery({
    queryKey: queryKeys.schedules.detail(scheduleId),
    queryFn: () => call((pylon) => pylon.agentSchedules.get(scheduleId)),
    refetchInterval: 5_000,
  });
}

/** The runs a schedule made, one page of 20, refreshed every 3 s. */
export function useScheduleRuns(scheduleId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.schedules.runList(scheduleId, cursor),
    queryFn: () => call((pylon) => pylon.agentSchedules.runs(scheduleId, { limit: 20 }).page(cursor)),
    refetchInterval: 3_000,
  });
}

export function useCreateSchedule({ onSuccess }: After<AgentSchedule, AgentScheduleCreate> = {}) {
  const queryClient = useQueryClient();
  return useChange(
    (body: AgentScheduleCreate) => call((pylon) => pylon.agentSchedules.create(body)),
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.schedules.all }),
    { onSuccess },
  );
}

/** Pause or resume, trigger and delete one schedule; each reads the schedules and its runs again. */
export function useScheduleActions(schedule: AgentSchedule, { onDeleted }: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  const id = schedule.schedule_id;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.schedules.all });
  const pause = useMutation({ mutationFn: () => call((pylon) => pylon.agentSchedules.update(id, { paused: !schedule.paused })), onSuccess: refresh });
  const trigger = useMutation({ mutationFn: () => call((pylon) => pylon.agentSchedules.trigger(id)), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => call((pylon) => pylon.agentSchedules.delete(id)),
    onSuccess: () => {
      refresh();
      onDeleted?.();
    },
  });
  return { pause, trigger, remove };
}
