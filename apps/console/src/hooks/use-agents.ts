import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Agent, AgentVersion, Pylon } from '@pylon/sdk';
import { call } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useChange, type After } from './mutation';

export type AgentVersionCreate = Parameters<Pylon['agents']['createVersion']>[1];

/** The organisation's agents, one page of 20. */
export function useAgents(cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.agents.list(cursor),
    queryFn: () => call((pylon) => pylon.agents.list({ limit: 20 }).page(cursor)),
  });
}

/** The first 100 agents, to pick one. */
export function useAgentChoices(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.agents.picker(),
    enabled,
    queryFn: () => call((pylon) => pylon.agents.list({ limit: 100 }).firstPage()),
  });
}

export function useAgent(agentId: string) {
  return useQuery({ queryKey: queryKeys.agents.detail(agentId), queryFn: () => call((pylon) => pylon.agents.get(agentId)) });
}

/** An agent's versions, newest first, one page of 20. */
export function useAgentVersions(agentId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.agents.versionList(agentId, cursor),
    queryFn: () => call((pylon) => pylon.agents.listVersions(agentId, { limit: 20 }).page(cursor)),
  });
}

/** An agent's first 100 versions, to pick one. */
export function useAgentVersionChoices(agentId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.agents.versions(agentId),
    enabled: enabled && agentId !== '',
    queryFn: () => call((pylon) => pylon.agents.listVersions(agentId, { limit: 100 }).firstPage()),
  });
}

/** One version (none while `versionId` is undefined or `enabled` is false); versions never change. */
export function useAgentVersion(versionId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.agents.version(versionId),
    enabled: enabled && versionId !== undefined,
    queryFn: () => call((pylon) => pylon.agents.getVersion(versionId!)),
    staleTime: 60_000,
  });
}

/** The models this server has (GET /api/v1/models). */
export function useModelProviders() {
  return useQuery({ queryKey: queryKeys.agents.modelProviders(), queryFn: () => call((pylon) => pylon.agents.modelProviders()) });
}

type AgentCreate = Parameters<Pylon['agents']['create']>[0];

export function useCreateAgent({ onSuccess }: After<Agent, AgentCreate> = {}) {
  const queryClient = useQueryClient();
  return useChange(
    (body: AgentCreate) => call((pylon) => pylon.agents.create(body)),
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all }),
    { onSuccess },
  );
}

export function useCreateAgentVersion(agentId: string, { onSuccess }: After<AgentVersion, AgentVersionCreate> = {}) {
  const queryClient = useQueryClient();
  return useChange(
    (body: AgentVersionCreate) => call((pylon) => pylon.agents.createVersion(agentId, body)),
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.agents.versions(agentId) }),
    { onSuccess },
  );
}
