import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_TASK_QUEUE_PREFIX, MAX_ORG_LIMIT, MAX_RATE_LIMIT, WORK_KINDS, taskQueueName, type Lane, type WorkKind } from '@pylon/contracts';
import { ConfigError } from './config-error';
import { readSecretsKeys } from './secrets-key';
import {
  readBoolean,
  readEnum,
  readHostPort,
  readInt,
  readList,
  readModelPrices,
  readModelProviders,
  readSharedProviders,
  BUILT_IN_MODEL_PROVIDERS,
  type ConfiguredModelProvider,
  readOptionalString,
  readPrivateTargets,
  readString,
  readUrl,
  type ConfiguredModelPrice,
} from './readers';

/** How many tasks of one kind a worker process runs at once. */
export interface WorkerSlots {
  workflowTasks: number;
  activities: number;
  localActivities: number;
}

/**
 * Defaults per kind: runs and webhooks wait on the network; ingestion and rendering use the CPU.
 * Run workflow tasks are CPU work on the worker's one workflow thread, so many of them at once only
 * queue there, first come first served; with few, they wait in Temporal's task queue instead, where
 * the fairness key (the organisation) orders them (bench noisy-neighbour: the quiet organisation's p50
 * ~850 → ~590 ms with 4 instead of 40). But a run of an in-process model holds its workflow task while
 * its turn (a local activity) waits on the database, so 4 left the CPU idle: 8 gives agent-run-e2e
 * 49–51 runs/s against 41 with 4.
 */
const DEFAULT_WORKER_SLOTS: Record<WorkKind, WorkerSlots> = {
  'agent-runs': { workflowTasks: 8, activities: 40, localActivities: 40 },
  knowledge: { workflowTasks: 10, activities: 4, localActivities: 10 },
  video: { workflowTasks: 10, activities: 4, localActivities: 10 },
  webhooks: { workflowTasks: 20, activities: 40, localActivities: 20 },
};

function envPrefix(kind: WorkKind): string {
  return kind.toUpperCase().replace(/-/g, '_');
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The whole configuration, validated once at start-up. Secrets are kept off `toJSON`
 * so that logging the config never prints them.
 */
export class PylonConfig {
  readonly port: number;
  readonly host: string;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  readonly adminToken: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly temporalAddress: string;
  readonly temporalNamespace: string;
  readonly temporalTaskQueuePrefix: string;
  readonly workerQueues: WorkKind[];
  readonly workerSlots: Record<WorkKind, WorkerSlots>;
  /**
   * Workflow-task slots (and as many activity and local-activity slots) of each worker's agent-runs
   * express lane: a task queue of its own (`<prefix>.agent-runs-express`) for the runs of organisations that
   * had no other run queued when theirs was created, so that such a run never waits for a slot behind
   * another organisation's backlog. 0 turns the lane off (every run on `<prefix>.agent-runs`); the API and
   * the workers must be given the same value.
   */
  readonly agentRunsExpressSlots: number;
  readonly temporalUiUrl: string | undefined;
  readonly openaiApiKey: string | undefined;
  readonly openaiBaseUrl: string | undefined;
  /** The wire API the built-in `openai` provider speaks (OPENAI_API): the Responses API, or Chat Completions for an older server. */
  readonly openaiApi: 'responses' | 'chat_completions';
  readonly anthropicApiKey: string | undefined;
  readonly anthropicBaseUrl: string | undefined;
  readonly googleApiKey: string | undefined;
  readonly googleBaseUrl: string | undefined;
  /** OpenAI-compatible endpoints the operator names (MODEL_PROVIDERS), each a provider of its own. */
  readonly modelProviders: ConfiguredModelProvider[];
  /**
   * The providers whose operator key (OPENAI_API_KEY, …) every organisation may run on (MODEL_SHARED_PROVIDERS);
   * undefined: every configured one. An organisation with its own key for a provider always runs on it.
   */
  readonly modelSharedProviders: readonly string[] | undefined;
  readonly llmTimeoutMs: number;
  readonly llmHeartbeatTimeoutSeconds: number;
  /** What model turns cost in service tokens (MODEL_PRICES); a model with no price is free. */
  readonly modelPrices: ConfiguredModelPrice[];
  readonly runEventsRetentionDays: number;
  readonly runEventsPollMs: number;
  readonly runEventsHeartbeatSeconds: number;
  readonly defaultRunTimeoutSeconds: number;
  readonly maxRunTimeoutSeconds: number;
  readonly bodyLimitBytes: number;
  /** How long a client may take to send a whole request (head and body) before it gets 408. */
  readonly requestTimeoutMs: number;
  readonly maxRunInputChars: number;
  readonly apiKeyLastUsedDebounceSeconds: number;
  readonly apiKeyRollGraceSeconds: number;
  readonly apiKeyCacheSeconds: number;
  /** How often each API process writes the requests it counted per key (api_key_request_counts). */
  readonly apiKeyUsageFlushMs: number;
  readonly dbPoolSize: number;
  /** Off behind a pooler that cannot carry named prepared statements (PgBouncer in transaction mode before 1.21). */
  readonly dbPreparedStatements: boolean;
  /** `local`, `openai`, `google`, or the name of an OpenAI-compatible endpoint in MODEL_PROVIDERS. */
  readonly embeddingProvider: string;
  readonly embeddingModel: string;
  readonly embeddingDimensions: number;
  readonly embeddingBatchSize: number;
  readonly embeddingTimeoutMs: number;
  readonly queryEmbeddingCacheSize: number;
  readonly kbChunkSize: number;
  readonly kbChunkOverlap: number;
  readonly kbMaxDocumentChars: number;
  /** The largest file an upload may carry (KB_MAX_FILE_BYTES). */
  readonly kbMaxFileBytes: number;
  /** The most text one file may yield once extracted (KB_MAX_EXTRACTED_CHARS). */
  readonly kbMaxExtractedChars: number;
  /** The most a compressed file (a DOCX's zip, a PDF's streams) may unpack to (KB_MAX_UNPACKED_BYTES): more is a decompression bomb. */
  readonly kbMaxUnpackedBytes: number;
  /** The most one compressed stream of a PDF may inflate to (KB_MAX_INFLATED_STREAM_BYTES). */
  readonly kbMaxInflatedStreamBytes: number;
  /** The most pages a PDF may have (KB_MAX_PDF_PAGES). */
  readonly kbMaxPdfPages: number;
  /** The most pieces of text one PDF page may hold (KB_MAX_TEXT_ITEMS_PER_PAGE). */
  readonly kbMaxTextItemsPerPage: number;
  /** Files a worker process reads at once, each in a thread of its own (KB_EXTRACTION_THREADS; default: the cores). */
  readonly kbExtractionThreads: number;
  /** The most reading one file may take (KB_EXTRACTION_TIMEOUT_SECONDS). */
  readonly kbExtractionTimeoutSeconds: number;
  /** The most reading one page of a PDF may take (KB_EXTRACTION_PAGE_TIMEOUT_SECONDS). */
  readonly kbExtractionPageTimeoutSeconds: number;
  /** The most heap one file's reading may use (KB_EXTRACTION_HEAP_MB). */
  readonly kbExtractionHeapMb: number;
  readonly kbExactSearchMaxChunks: number;
  readonly publicUrl: string;
  readonly videoProvider: 'local' | 'luma';
  readonly lumaApiKey: string | undefined;
  readonly lumaBaseUrl: string | undefined;
  readonly mediaDir: string;
  readonly localRenderSeconds: number;
  readonly videoTokenCost: number;
  readonly videoTimeoutSeconds: number;
  readonly videoProviderTimeoutMs: number;
  /** Non-public receivers allowed, one address or network at a time (WEBHOOK_ALLOWED_PRIVATE_TARGETS); empty: none. */
  readonly webhookAllowedPrivateTargets: readonly string[];
  readonly webhookAttemptTimeoutMs: number;
  readonly webhookSecretGraceSeconds: number;
  /** Requests per second an API key may sustain, unless the key has its own limit. */
  readonly rateLimitPerSecond: number;
  /** Requests an API key may send at once, unless the key has its own limit; at least rateLimitPerSecond. */
  readonly rateLimitBurst: number;
  /** Defaults of each organisation's caps; an operator overrides them per organisation (table org_limits). */
  readonly webhookMaxEndpoints: number;
  readonly webhookTestEventsPerMinute: number;
  readonly webhookMaxInflightPerEndpoint: number;
  /** Runs an organisation may have queued (accepted, not yet started) before a new one is 429; it overrides them per organisation. */
  readonly maxQueuedRuns: number;
  /** Documents an organisation may have processing before a new one is 429. */
  readonly maxQueuedDocuments: number;
  /** Live event streams one API key may hold open on one API process (each holds a connection and a listener). */
  readonly eventStreamsPerKey: number;
  readonly trustProxy: boolean;
  readonly readyMaxQueueBacklog: number;
  readonly workerMetricsPort: number;
  /** The worker's `GET /healthz`, answered from a thread of its own even while the event loop is blocked; 0 = off. */
  readonly workerHealthPort: number;
  /** How long the worker's event loop may go without running before its health is `stalled` (503). */
  readonly workerStallSeconds: number;
  /** The Temporal SDK's own worker metrics (slots, task latencies, sticky cache), served by its core; 0 = off. */
  readonly workerTemporalMetricsPort: number;
  /** The key secrets at rest are sealed under (SECRETS_KEY, 32 bytes); absent: no secrets can be stored. */
  readonly secretsKey: Buffer | undefined;
  /** Keys being rotated out (SECRETS_PREVIOUS_KEYS): they still open what they sealed. */
  readonly secretsPreviousKeys: readonly Buffer[];

  constructor(env: Record<string, string | undefined>) {
    this.port = readInt(env, 'PORT', 3000, 0, 65535);
    this.host = readString(env, 'HOST', '127.0.0.1');
    this.logLevel = readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info');
    this.adminToken = readOptionalString(env, 'ADMIN_TOKEN');
    if (this.adminToken !== undefined && this.adminToken.length < 16) {
      throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters long');
    }
    this.databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
    this.dataDir = resolve(readString(env, 'DATA_DIR', '.data'));
    this.temporalAddress = readHostPort(env, 'TEMPORAL_ADDRESS', 'localhost:7233');
    this.temporalNamespace = readString(env, 'TEMPORAL_NAMESPACE', 'default');
    this.temporalTaskQueuePrefix = readString(env, 'TEMPORAL_TASK_QUEUE_PREFIX', DEFAULT_TASK_QUEUE_PREFIX);
    this.workerQueues = readList(env, 'WORKER_QUEUES', WORK_KINDS, WORK_KINDS);
    this.workerSlots = Object.fromEntries(
      WORK_KINDS.map((kind) => {
        const defaults = DEFAULT_WORKER_SLOTS[kind];
        const name = envPrefix(kind);
        return [
          kind,
          {
            workflowTasks: readInt(env, `${name}_WORKFLOW_SLOTS`, defaults.workflowTasks, 2, 10_000),
            activities: readInt(env, `${name}_ACTIVITY_SLOTS`, defaults.activities, 1, 10_000),
            localActivities: readInt(env, `${name}_LOCAL_ACTIVITY_SLOTS`, defaults.localActivities, 1, 10_000),
          },
        ];
      }),
    ) as Record<WorkKind, WorkerSlots>;
    this.agentRunsExpressSlots = readInt(env, 'AGENT_RUNS_EXPRESS_SLOTS', DEFAULT_WORKER_SLOTS['agent-runs'].workflowTasks, 0, 10_000);
    if (this.agentRunsExpressSlots === 1) throw new ConfigError('AGENT_RUNS_EXPRESS_SLOTS', 'must be 0 (no express lane) or at least 2');
    this.temporalUiUrl = readUrl(env, 'TEMPORAL_UI_URL', ['http:', 'https:']);
    this.openaiApiKey = readOptionalString(env, 'OPENAI_API_KEY');
    this.openaiBaseUrl = readUrl(env, 'OPENAI_BASE_URL', ['http:', 'https:']);
    this.openaiApi = readEnum(env, 'OPENAI_API', ['responses', 'chat_completions'] as const, 'responses');
    this.anthropicApiKey = readOptionalString(env, 'ANTHROPIC_API_KEY');
    this.anthropicBaseUrl = readUrl(env, 'ANTHROPIC_BASE_URL', ['http:', 'https:']);
    this.googleApiKey = readOptionalString(env, 'GOOGLE_API_KEY');
    this.googleBaseUrl = readUrl(env, 'GOOGLE_BASE_URL', ['http:', 'https:']);
    this.modelProviders = readModelProviders(env, 'MODEL_PROVIDERS');
    this.modelSharedProviders = readSharedProviders(env, 'MODEL_SHARED_PROVIDERS', [
      ...BUILT_IN_MODEL_PROVIDERS.filter((provider) => provider !== 'local'),
      ...this.modelProviders.map((provider) => provider.name),
    ]);
    this.llmTimeoutMs = readInt(env, 'LLM_TIMEOUT_MS', 60_000, 100, 600_000);
    // Short: a cancel reaches a model call only with the answer to one of its heartbeats.
    this.llmHeartbeatTimeoutSeconds = readInt(env, 'LLM_HEARTBEAT_TIMEOUT_SECONDS', 5, 1, 600);
    this.modelPrices = readModelPrices(env, 'MODEL_PRICES');
    this.runEventsRetentionDays = readInt(env, 'RUN_EVENTS_RETENTION_DAYS', 7, 1, 3_650);
    this.runEventsPollMs = readInt(env, 'RUN_EVENTS_POLL_MS', 500, 50, 60_000);
    this.runEventsHeartbeatSeconds = readInt(env, 'RUN_EVENTS_HEARTBEAT_SECONDS', 15, 1, 3_600);
    this.defaultRunTimeoutSeconds = readInt(env, 'RUN_TIMEOUT_SECONDS', 600, 1, 86_400);
    this.maxRunTimeoutSeconds = readInt(env, 'MAX_RUN_TIMEOUT_SECONDS', 3_600, 1, 86_400);
    this.bodyLimitBytes = readInt(env, 'BODY_LIMIT_BYTES', 1_048_576, 1_024, 104_857_600);
    this.requestTimeoutMs = readInt(env, 'REQUEST_TIMEOUT_MS', 60_000, 1_000, 3_600_000);
    this.maxRunInputChars = readInt(env, 'MAX_RUN_INPUT_CHARS', 100_000, 1, 10_000_000);
    this.apiKeyLastUsedDebounceSeconds = readInt(env, 'API_KEY_LAST_USED_DEBOUNCE_SECONDS', 60, 0, 86_400);
    this.apiKeyRollGraceSeconds = readInt(env, 'API_KEY_ROLL_GRACE_SECONDS', 86_400, 0, 2_592_000);
    this.apiKeyCacheSeconds = readInt(env, 'API_KEY_CACHE_SECONDS', 5, 0, 300);
    this.apiKeyUsageFlushMs = readInt(env, 'API_KEY_USAGE_FLUSH_MS', 5_000, 50, 3_600_000);
    this.dbPoolSize = readInt(env, 'DB_POOL_SIZE', 10, 1, 200);
    this.dbPreparedStatements = readBoolean(env, 'DB_PREPARED_STATEMENTS', true);
    this.trustProxy = readBoolean(env, 'TRUST_PROXY', false);
    this.readyMaxQueueBacklog = readInt(env, 'READY_MAX_QUEUE_BACKLOG', 0, 0, 1_000_000_000);
    this.workerMetricsPort = readInt(env, 'WORKER_METRICS_PORT', 0, 0, 65535);
    this.workerHealthPort = readInt(env, 'WORKER_HEALTH_PORT', 0, 0, 65535);
    this.workerStallSeconds = readInt(env, 'WORKER_STALL_SECONDS', 5, 1, 3_600);
    this.workerTemporalMetricsPort = readInt(env, 'WORKER_TEMPORAL_METRICS_PORT', 0, 0, 65535);
    this.embeddingProvider = readEnum(
      env,
      'EMBEDDING_PROVIDER',
      ['local', 'openai', 'google', ...this.modelProviders.map((provider) => provider.name)],
      'local',
    );
    this.embeddingModel = readString(env, 'EMBEDDING_MODEL', 'text-embedding-3-small');
    this.embeddingDimensions = readInt(env, 'EMBEDDING_DIMENSIONS', 384, 16, 4096);
    this.embeddingBatchSize = readInt(env, 'EMBEDDING_BATCH_SIZE', 64, 1, 2048);
    this.embeddingTimeoutMs = readInt(env, 'EMBEDDING_TIMEOUT_MS', 30_000, 100, 600_000);
    this.queryEmbeddingCacheSize = readInt(env, 'QUERY_EMBEDDING_CACHE_SIZE', 1_000, 0, 1_000_000);
    this.kbChunkSize = readInt(env, 'KB_CHUNK_SIZE', 1_000, 100, 20_000);
    this.kbChunkOverlap = readInt(env, 'KB_CHUNK_OVERLAP', 150, 0, 10_000);
    if (this.kbChunkOverlap >= this.kbChunkSize / 2) {
      throw new ConfigError('KB_CHUNK_OVERLAP', `must be less than half of KB_CHUNK_SIZE (${this.kbChunkSize})`);
    }
    this.kbMaxDocumentChars = readInt(env, 'KB_MAX_DOCUMENT_CHARS', 500_000, 1, 10_000_000);
    this.kbMaxFileBytes = readInt(env, 'KB_MAX_FILE_BYTES', 50 * 1024 * 1024, 1, 1024 * 1024 * 1024);
    this.kbMaxExtractedChars = readInt(env, 'KB_MAX_EXTRACTED_CHARS', 5_000_000, 1, 100_000_000);
    this.kbMaxUnpackedBytes = readInt(env, 'KB_MAX_UNPACKED_BYTES', 256 * 1024 * 1024, 1, 4 * 1024 * 1024 * 1024);
    this.kbMaxInflatedStreamBytes = readInt(env, 'KB_MAX_INFLATED_STREAM_BYTES', 64 * 1024 * 1024, 1, 4 * 1024 * 1024 * 1024);
    this.kbMaxPdfPages = readInt(env, 'KB_MAX_PDF_PAGES', 5_000, 1, 1_000_000);
    this.kbMaxTextItemsPerPage = readInt(env, 'KB_MAX_TEXT_ITEMS_PER_PAGE', 50_000, 1, 10_000_000);
    this.kbExtractionThreads = readInt(env, 'KB_EXTRACTION_THREADS', availableParallelism(), 1, 256);
    this.kbExtractionTimeoutSeconds = readInt(env, 'KB_EXTRACTION_TIMEOUT_SECONDS', 120, 1, 3_600);
    this.kbExtractionPageTimeoutSeconds = readInt(env, 'KB_EXTRACTION_PAGE_TIMEOUT_SECONDS', 30, 1, 3_600);
    this.kbExtractionHeapMb = readInt(env, 'KB_EXTRACTION_HEAP_MB', 512, 64, 65_536);
    this.kbExactSearchMaxChunks = readInt(env, 'KB_EXACT_SEARCH_MAX_CHUNKS', 60_000, 0, 10_000_000);
    this.publicUrl = (readUrl(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${this.port}`).replace(/\/+$/, '');
    this.videoProvider = readEnum(env, 'VIDEO_PROVIDER', ['local', 'luma'] as const, 'local');
    this.lumaApiKey = readOptionalString(env, 'LUMA_API_KEY');
    this.lumaBaseUrl = readUrl(env, 'LUMA_BASE_URL', ['http:', 'https:']);
    this.mediaDir = resolve(readString(env, 'MEDIA_DIR', resolve(this.dataDir, 'media')));
    this.localRenderSeconds = readInt(env, 'LOCAL_RENDER_SECONDS', 3, 1, 60);
    this.videoTokenCost = readInt(env, 'VIDEO_TOKEN_COST', 500_000, 0, Number.MAX_SAFE_INTEGER);
    this.videoTimeoutSeconds = readInt(env, 'VIDEO_TIMEOUT_SECONDS', 1_800, 5, 86_400);
    if (env.WEBHOOK_ALLOW_PRIVATE_URLS !== undefined) {
      throw new ConfigError(
        'WEBHOOK_ALLOW_PRIVATE_URLS',
        'is replaced by WEBHOOK_ALLOWED_PRIVATE_TARGETS: list the private receivers to allow, e.g. "loopback" or "10.0.0.5,10.1.0.0/24"',
      );
    }
    this.webhookAllowedPrivateTargets = readPrivateTargets(env, 'WEBHOOK_ALLOWED_PRIVATE_TARGETS');
    this.webhookAttemptTimeoutMs = readInt(env, 'WEBHOOK_ATTEMPT_TIMEOUT_MS', 15_000, 100, 25_000);
    this.webhookSecretGraceSeconds = readInt(env, 'WEBHOOK_SECRET_GRACE_SECONDS', 86_400, 0, 2_592_000);
    this.videoProviderTimeoutMs = readInt(env, 'VIDEO_PROVIDER_TIMEOUT_MS', 30_000, 100, 600_000);
    this.rateLimitPerSecond = readInt(env, 'RATE_LIMIT_PER_SECOND', 50, 1, MAX_RATE_LIMIT);
    this.rateLimitBurst = readInt(env, 'RATE_LIMIT_BURST', Math.max(100, this.rateLimitPerSecond), 1, MAX_RATE_LIMIT);
    if (this.rateLimitBurst < this.rateLimitPerSecond) {
      throw new ConfigError('RATE_LIMIT_BURST', `must be at least RATE_LIMIT_PER_SECOND (${this.rateLimitPerSecond}), got ${this.rateLimitBurst}`);
    }
    this.webhookMaxEndpoints = readInt(env, 'WEBHOOK_MAX_ENDPOINTS', 20, 1, MAX_ORG_LIMIT);
    this.webhookTestEventsPerMinute = readInt(env, 'WEBHOOK_TEST_EVENTS_PER_MINUTE', 10, 1, MAX_ORG_LIMIT);
    this.webhookMaxInflightPerEndpoint = readInt(env, 'WEBHOOK_MAX_INFLIGHT_PER_ENDPOINT', 100, 1, MAX_ORG_LIMIT);
    this.maxQueuedRuns = readInt(env, 'MAX_QUEUED_RUNS', 10_000, 1, MAX_ORG_LIMIT);
    this.maxQueuedDocuments = readInt(env, 'MAX_QUEUED_DOCUMENTS', 1_000, 1, MAX_ORG_LIMIT);
    this.eventStreamsPerKey = readInt(env, 'EVENT_STREAMS_PER_KEY', 20, 1, 100_000);
    const secrets = readSecretsKeys(env);
    this.secretsKey = secrets.current;
    this.secretsPreviousKeys = secrets.previous;
  }

  /** The task queue of one kind of work, or of its express lane. */
  taskQueue(kind: WorkKind, lane: Lane = 'standard'): string {
    return taskQueueName(this.temporalTaskQueuePrefix, kind, lane);
  }

  /** Every task queue the workers poll, by kind and lane: one per kind, the agent runs' express lane unless it is off, knowledge's extraction lane. */
  taskQueues(): Array<{ kind: WorkKind; lane: Lane; taskQueue: string }> {
    const lanes = (kind: WorkKind): Lane[] => {
      if (kind === 'agent-runs' && this.agentRunsExpressSlots > 0) return ['standard', 'express'];
      if (kind === 'knowledge') return ['standard', 'extraction'];
      return ['standard'];
    };
    return WORK_KINDS.flatMap((kind) => lanes(kind).map((lane) => ({ kind, lane, taskQueue: this.taskQueue(kind, lane) })));
  }

  /** The slots of a lane's Temporal Worker: a kind's own, but for the express lane's workflow tasks and the extraction lane, whose activities are its threads. */
  laneSlots(kind: WorkKind, lane: Lane): WorkerSlots {
    const slots = this.workerSlots[kind];
    if (lane === 'express') return { ...slots, workflowTasks: this.agentRunsExpressSlots };
    if (lane === 'extraction') return { ...slots, activities: this.kbExtractionThreads };
    return slots;
  }

  /** The database URL, or a start-up error naming the setting when a process needs one. */
  requireDatabaseUrl(): string {
    if (!this.databaseUrl) {
      throw new ConfigError('DATABASE_URL', 'is required (run `npm start` for the embedded database)');
    }
    return this.databaseUrl;
  }

  requireAdminToken(): string {
    if (!this.adminToken) throw new ConfigError('ADMIN_TOKEN', 'is required to serve the admin API');
    return this.adminToken;
  }

  toJSON(): Record<string, unknown> {
    const {
      adminToken,
      openaiApiKey,
      anthropicApiKey,
      googleApiKey,
      modelProviders,
      lumaApiKey,
      databaseUrl,
      secretsKey,
      secretsPreviousKeys,
      ...rest
    } = this;
    return {
      ...rest,
      adminToken: adminToken ? '[set]' : undefined,
      openaiApiKey: openaiApiKey ? '[set]' : undefined,
      anthropicApiKey: anthropicApiKey ? '[set]' : undefined,
      googleApiKey: googleApiKey ? '[set]' : undefined,
      modelProviders: modelProviders.map(({ apiKey, ...provider }) => ({ ...provider, apiKey: apiKey ? '[set]' : undefined })),
      lumaApiKey: lumaApiKey ? '[set]' : undefined,
      databaseUrl: databaseUrl?.replace(/\/\/[^@/]*@/, '//***@'),
      secretsKey: secretsKey ? '[set]' : undefined,
      secretsPreviousKeys: secretsPreviousKeys.length,
    };
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): PylonConfig {
  return new PylonConfig(env);
}
