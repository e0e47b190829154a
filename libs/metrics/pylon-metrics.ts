import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { clusterMetricsText, shareWithClusterPrimary } from './cluster-metrics';
import { WORKFLOW_OUTCOMES, WORKFLOW_TYPES, type WorkflowOutcome } from '@pylon/contracts';

/** Which process the metrics describe: each exposes only what it sees. */
export type MetricsProcess = 'api' | 'worker';

/** What one webhook attempt came to: a 2xx, another answer (retried), a 410, an address refused, no answer at all. */
export const WEBHOOK_ATTEMPT_RESULTS = ['delivered', 'retry', 'gone', 'refused', 'error'] as const;
export type WebhookAttemptResult = (typeof WEBHOOK_ATTEMPT_RESULTS)[number];

export const TASK_TYPES = ['workflow', 'activity'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const SLOT_TYPES = ['workflow_task', 'activity', 'local_activity'] as const;
export type SlotType = (typeof SLOT_TYPES)[number];

/** How many of one kind of slot a worker's Temporal Worker on one task queue has, and how many are taken. */
export interface WorkerSlotSample {
  taskQueue: string;
  slotType: SlotType;
  used: number;
  max: number;
}

/** The extraction threads of a worker: how many files it is reading and how many wait for a thread. */
export interface ExtractionLoadSample {
  reading: number;
  waiting: number;
  threads: number;
}

/** The approximate number of tasks waiting in one task queue for one type of task. */
export interface TaskQueueBacklogSample {
  taskQueue: string;
  taskType: TaskType;
  tasks: number;
}

/**
 * The process's Prometheus metrics, in a registry of its own, with default Node process metrics.
 * Labels carry only bounded, public values (methods, route templates, statuses, workflow types,
 * queue names): never an organisation, a resource id or a secret.
 */
export class PylonMetrics {
  readonly registry = new Registry();
  private readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  /**
   * The histogram's series by method, route template and status, so a request observes into its series
   * without prom-client hashing the label object again each time. Bounded: route templates and statuses are
   * finite (unknown URLs share one route label).
   */
  private readonly httpSeries = new Map<string, { observe(seconds: number): void }>();
  private readonly workflowsStarted: Counter<'workflow_type'>;
  private readonly rateLimitRejections: Counter;
  private readonly taskQueueBacklog: Gauge<'task_queue' | 'task_type'>;
  private readonly webhookDeliveryAttempts: Counter<'result'>;
  private readonly workflowsCompleted: Counter<'workflow_type' | 'outcome'>;
  private readonly dbStatements: Counter<'statement'>;
  /**
   * Statements sent since the counter was last read, by label (bounded by MAX_STATEMENT_LABELS): a statement
   * adds one here, and the counter takes the sums when it is read. prom-client's `inc` checks and hashes the
   * labels on every call, and every statement of the API and the worker is counted.
   */
  private readonly uncountedStatements = new Map<string, number>();
  private readBacklog: (() => Promise<readonly TaskQueueBacklogSample[]>) | undefined;
  private readonly workerSlots: Gauge<'task_queue' | 'slot_type' | 'state'>;
  private readSlots: (() => readonly WorkerSlotSample[]) | undefined;
  private readonly extractionFiles: Gauge<'state'>;
  private readExtraction: (() => ExtractionLoadSample) | undefined;

  constructor(readonly process: MetricsProcess) {
    collectDefaultMetrics({ register: this.registry });
    if (process === 'api') shareWithClusterPrimary(this.registry);
    const api = process === 'api' ? [this.registry] : [];
    const worker = process === 'worker' ? [this.registry] : [];
    this.httpRequestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests served by the API, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: api,
    });
    this.workflowsStarted = new Counter({
      name: 'pylon_workflows_started_total',
      help: 'Workflows the API started, by workflow type.',
      labelNames: ['workflow_type'],
      registers: api,
    });
    this.rateLimitRejections = new Counter({
      name: 'pylon_rate_limit_rejections_total',
      help: 'Requests the API refused because a limit was reached, by limit.',
      labelNames: ['limit'],
      registers: api,
    });
    for (const limit of ['api_key_rate', 'queued_runs', 'queued_documents', 'test_events_per_minute', 'webhook_endpoints', 'event_streams_per_key'])
      this.rateLimitRejections.inc({ limit }, 0);
    this.taskQueueBacklog = new Gauge({
      name: 'pylon_task_queue_backlog',
      help: "Approximate tasks waiting in each kind's task queue (Temporal DescribeTaskQueue), by task type.",
      labelNames: ['task_queue', 'task_type'],
      registers: api,
      // Every API replica reads the same backlog from Temporal: the cluster's figure is any one of them.
      aggregator: 'first',
      collect: () => this.collectBacklog(),
    });
    this.webhookDeliveryAttempts = new Counter({
      name: 'pylon_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts made by this worker, by result.',
      labelNames: ['result'],
      registers: worker,
    });
    this.workflowsCompleted = new Counter({
      name: 'pylon_workflows_completed_total',
      help: 'Workflow executions that ended on this worker, by workflow type and outcome.',
      labelNames: ['workflow_type', 'outcome'],
      registers: worker,
    });
    this.workerSlots = new Gauge({
      name: 'pylon_worker_slots',
      help: "This worker's task slots per task queue and slot type, used or free: a queue whose slots are all used makes its work wait in Temporal.",
      labelNames: ['task_queue', 'slot_type', 'state'],
      registers: worker,
      collect: () => this.collectSlots(),
    });
    this.extractionFiles = new Gauge({
      name: 'pylon_extraction_threads',
      help: "This worker's file extraction threads: reading a file, or idle; and files waiting for one (waiting).",
      labelNames: ['state'],
      registers: worker,
      collect: () => this.collectExtraction(),
    });
    this.dbStatements = new Counter({
      name: 'pylon_db_statements_total',
      help: "Statements this process sent to the database, by statement (its SQL text's first 120 characters, never a parameter).",
      labelNames: ['statement'],
      registers: [this.registry],
      collect: () => this.addUncountedStatements(),
    });
    for (const workflowType of Object.values(WORKFLOW_TYPES)) {
      this.workflowsStarted.inc({ workflow_type: workflowType }, 0);
      for (const outcome of WORKFLOW_OUTCOMES) this.workflowsCompleted.inc({ workflow_type: workflowType, outcome }, 0);
    }
    for (const result of WEBHOOK_ATTEMPT_RESULTS) this.webhookDeliveryAttempts.inc({ result }, 0);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every metric of this process, or of every API replica of its cluster. */
  render(): Promise<string> {
    return clusterMetricsText() ?? this.registry.metrics();
  }

  /** `route` is the route template (`/api/v1/agent-runs/:runId`), never the raw URL. */
  observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.httpSeries.get(key);
    if (!series) {
      series = this.httpRequestDuration.labels({ method, route, status: String(status) });
      this.httpSeries.set(key, series);
    }
    series.observe(seconds);
  }

  countWorkflowStarted(workflowType: string): void {
    this.workflowsStarted.inc({ workflow_type: workflowType });
  }

  /** One request refused by a limit: a key's request rate, test events per minute, or the endpoint cap. */
  countRateLimitRejection(limit: string): void {
    this.rateLimitRejections.inc({ limit });
  }

  countWebhookAttempt(result: WebhookAttemptResult): void {
    this.webhookDeliveryAttempts.inc({ result });
  }

  countWorkflowEnded(workflowType: string, outcome: WorkflowOutcome): void {
    this.workflowsCompleted.inc({ workflow_type: workflowType, outcome });
  }

  /** One statement sent to the database; `statement` is its label (`statementLabel` of @pylon/db). */
  countDbStatement(statement: string): void {
    this.uncountedStatements.set(statement, (this.uncountedStatements.get(statement) ?? 0) + 1);
  }

  private addUncountedStatements(): void {
    for (const [statement, count] of this.uncountedStatements) this.dbStatements.inc({ statement }, count);
    this.uncountedStatements.clear();
  }

  /** Where `pylon_task_queue_backlog` is read from at each scrape. */
  reportTaskQueueBacklog(read: () => Promise<readonly TaskQueueBacklogSample[]>): void {
    this.readBacklog = read;
  }

  /** A backlog that cannot be read has no samples rather than stale ones. */
  private async collectBacklog(): Promise<void> {
    this.taskQueueBacklog.reset();
    if (!this.readBacklog) return;
    let samples: readonly TaskQueueBacklogSample[];
    try {
      samples = await this.readBacklog();
    } catch {
      return;
    }
    for (const sample of samples) this.taskQueueBacklog.set({ task_queue: sample.taskQueue, task_type: sample.taskType }, sample.tasks);
  }

  /** Where `pylon_worker_slots` is read from at each scrape. */
  reportWorkerSlots(read: () => readonly WorkerSlotSample[]): void {
    this.readSlots = read;
  }

  /** Where `pylon_extraction_threads` is read from at each scrape. */
  reportExtractionLoad(read: () => ExtractionLoadSample): void {
    this.readExtraction = read;
  }

  private collectSlots(): void {
    this.workerSlots.reset();
    for (const { taskQueue, slotType, used, max } of this.readSlots?.() ?? []) {
      this.workerSlots.set({ task_queue: taskQueue, slot_type: slotType, state: 'used' }, used);
      this.workerSlots.set({ task_queue: taskQueue, slot_type: slotType, state: 'free' }, Math.max(0, max - used));
    }
  }

  private collectExtraction(): void {
    const load = this.readExtraction?.();
    if (!load) return;
    this.extractionFiles.set({ state: 'reading' }, load.reading);
    this.extractionFiles.set({ state: 'idle' }, Math.max(0, load.threads - load.reading));
    this.extractionFiles.set({ state: 'waiting' }, load.waiting);
  }
}
