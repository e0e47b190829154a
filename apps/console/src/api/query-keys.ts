/**
 * Every key of the console's query cache, in one place: the hooks (src/hooks/) read with these and
 * invalidate with them, and a prefix (`queryKeys.runs.all`) matches every key under it.
 */
export const queryKeys = {
  whoami: (apiKey: string | null) => ['whoami', apiKey] as const,
  usage: () => ['usage'] as const,
  runs: {
    lists: ['runs', 'list'] as const,
    list: (status: string, cursor: string | undefined) => ['runs', 'list', status, cursor] as const,
    detail: (runId: string | null) => ['runs', 'detail', runId] as const,
    usage: (runId: string) => ['runs', 'usage', runId] as const,
  },
  agents: {
    all: ['agents'] as const,
    list: (cursor: string | undefined) => ['agents', 'list', cursor] as const,
    picker: () => ['agents', 'picker'] as const,
    detail: (agentId: string) => ['agents', 'detail', agentId] as const,
    versions: (agentId: string) => ['agents', 'versions', agentId] as const,
    versionList: (agentId: string, cursor: string | undefined) => ['agents', 'versions', agentId, 'list', cursor] as const,
    version: (versionId: string | undefined) => ['agents', 'version', versionId] as const,
    modelProviders: () => ['agents', 'model-providers'] as const,
  },
  schedules: {
    all: ['schedules'] as const,
    list: (cursor: string | undefined) => ['schedules', 'list', cursor] as const,
    detail: (scheduleId: string) => ['schedules', 'detail', scheduleId] as const,
    runs: (scheduleId: string) => ['schedules', 'runs', scheduleId] as const,
    runList: (scheduleId: string, cursor: string | undefined) => ['schedules', 'runs', scheduleId, cursor] as const,
  },
  conversations: {
    all: ['conversations'] as const,
    list: () => ['conversations', 'list'] as const,
    items: (conversationId: string | undefined) => ['conversations', 'items', conversationId] as const,
  },
  knowledge: {
    bases: () => ['knowledge', 'bases'] as const,
    documents: () => ['knowledge', 'documents'] as const,
    documentList: (baseId: string, cursor: string | undefined) => ['knowledge', 'documents', baseId, cursor] as const,
    document: (docId: string | undefined) => ['knowledge', 'document', docId] as const,
  },
  tokens: {
    all: ['tokens'] as const,
    balance: () => ['tokens', 'balance'] as const,
    entries: () => ['tokens', 'entries'] as const,
    entryPage: (cursor: string | undefined) => ['tokens', 'entry-page', cursor] as const,
  },
  videos: {
    all: ['videos'] as const,
    generations: (ids: string[]) => ['videos', 'generations', ids] as const,
  },
  webhooks: {
    endpoints: () => ['webhooks', 'endpoints'] as const,
    endpointLists: () => ['webhooks', 'endpoints', 'list'] as const,
    endpointList: (cursor: string | undefined) => ['webhooks', 'endpoints', 'list', cursor] as const,
    endpoint: (endpointId: string) => ['webhooks', 'endpoints', 'detail', endpointId] as const,
    deliveries: (endpointId: string) => ['webhooks', 'deliveries', endpointId] as const,
    deliveryList: (endpointId: string, filters: { status: string; eventType: string; eventId: string }, cursor: string | undefined) =>
      ['webhooks', 'deliveries', endpointId, filters, cursor] as const,
  },
  modelCredentials: {
    all: ['model-credentials'] as const,
    list: () => ['model-credentials', 'list'] as const,
  },
  apiKeys: {
    all: ['api-keys'] as const,
    list: (cursor: string | undefined) => ['api-keys', 'list', cursor] as const,
  },
};
