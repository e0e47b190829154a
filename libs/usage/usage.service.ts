import { Injectable } from '@nestjs/common';
import { grantsScope, type Scope } from '@pylon/contracts';
import {
  UsageRepository,
  type FailureKind,
  type ModelTurnCounts,
  type RunCounts,
  type UsageWindows,
  type WindowRow,
} from './repositories/usage.repository';

const DAY_MS = 86_400_000;
export const USAGE_WINDOWS = ['24h', '30d'] as const;
type WindowName = (typeof USAGE_WINDOWS)[number];

export interface RunUsage {
  total: number;
  succeeded: number;
  /** Failed, not counting the cancelled ones. */
  failed: number;
  cancelled: number;
  in_progress: number;
  /** succeeded / finished (succeeded, failed or cancelled); null when none finished. */
  success_rate: number | null;
  /** updated_at − created_at of the finished runs, in ms; null when none finished. */
  duration_ms: { p50: number | null; p95: number | null };
}

export interface UsageWindowReport {
  window: WindowName;
  since: string;
  runs?: RunUsage;
  documents?: { total: number; ready: number; failed: number; processing: number };
  videos?: { total: number; completed: number; failed: number; in_progress: number };
  deliveries?: { total: number; delivered: number; failed: number; pending: number };
  tokens?: { granted: number; debited: number; refunded: number };
  /** Model turns of runs, their tokens, and the service tokens the runs were charged. */
  models?: ModelTurnCounts;
}

export interface FailingEndpoint {
  endpoint_id: string;
  url: string;
  enabled: boolean;
  /** Attempts in the last 24 h that got no answer or an answer other than 2xx. */
  failed_24h: number;
  /** Deliveries that ended failed in the last 24 h (out of attempts, or the endpoint disabled or deleted). */
  failed_deliveries_24h: number;
  last_failure_at: string;
  last_error: string | null;
}

export interface RecentFailure {
  kind: FailureKind;
  id: string;
  reason: string | null;
  at: string;
}

export interface KeyUsage {
  key_id: string;
  name: string;
  hint: string;
  requests_24h: number;
  requests_30d: number;
  last_used_at: string | null;
}

export interface UsageReport {
  org_id: string;
  generated_at: string;
  windows: UsageWindowReport[];
  failing_endpoints?: FailingEndpoint[];
  recent_failures?: RecentFailure[];
  api_keys?: KeyUsage[];
}

/** Which scope shows which part of the report: a key sees here only what it could read otherwise. */
const SECTION_SCOPES = {
  runs: 'runs:read',
  documents: 'kb:read',
  videos: 'video:read',
  deliveries: 'webhooks:manage',
  tokens: 'tokens:read',
  apiKeys: 'keys:manage',
} as const satisfies Record<string, Scope>;

const FAILURE_KIND_SECTION: Record<FailureKind, keyof typeof SECTION_SCOPES> = {
  agent_run: 'runs',
  knowledge_document: 'documents',
  video_generation: 'videos',
  webhook_delivery: 'deliveries',
};

/** One window's row, without its name. */
function inWindow<T extends object>(rows: Array<WindowRow<T>>, window: WindowName): T {
  const row = rows.find((candidate) => candidate.window === window);
  if (!row) throw new Error(`the usage statement answered no ${window} row`);
  const { window: _name, ...counts } = row;
  return counts as unknown as T;
}

function runUsage(row: RunCounts): RunUsage {
  const finished = row.succeeded + row.failed;
  return {
    total: row.total,
    succeeded: row.succeeded,
    failed: row.failed - row.cancelled,
    cancelled: row.cancelled,
    in_progress: row.in_progress,
    success_rate: finished === 0 ? null : Math.round((row.succeeded / finished) * 10_000) / 10_000,
    duration_ms: { p50: row.p50_ms, p95: row.p95_ms },
  };
}

/**
 * What happened in an organisation over the last 24 hours and 30 days: its runs, documents, videos,
 * model tokens and run charges, webhook deliveries and tokens, its failing webhook endpoints, its newest failures and its keys' requests,
 * each section computed in SQL (UsageRepository) and present only for a caller whose scopes read it.
 */
@Injectable()
export class UsageService {
  constructor(private readonly usage: UsageRepository) {}

  async report(orgId: string, scopes: readonly string[], now = new Date()): Promise<UsageReport> {
    const may = (section: keyof typeof SECTION_SCOPES) => grantsScope(scopes, SECTION_SCOPES[section]);
    const windows: UsageWindows = { day: new Date(now.getTime() - DAY_MS), month: new Date(now.getTime() - 30 * DAY_MS) };
    const failureKinds = (Object.keys(FAILURE_KIND_SECTION) as FailureKind[]).filter((kind) => may(FAILURE_KIND_SECTION[kind]));
    const skip = Promise.resolve(undefined);
    const [runs, models, documents, videos, deliveries, tokens, failingEndpoints, recentFailures, apiKeys] = await Promise.all([
      may('runs') ? this.usage.runs(orgId, windows) : skip,
      may('runs') ? this.usage.models(orgId, windows) : skip,
      may('documents') ? this.usage.documents(orgId, windows) : skip,
      may('videos') ? this.usage.videos(orgId, windows) : skip,
      may('deliveries') ? this.usage.deliveries(orgId, windows) : skip,
      may('tokens') ? this.usage.tokens(orgId, windows) : skip,
      may('deliveries') ? this.usage.failingEndpoints(orgId, windows.day) : skip,
      failureKinds.length > 0 ? this.usage.recentFailures(orgId, failureKinds) : skip,
      may('apiKeys') ? this.usage.apiKeys(orgId, windows) : skip,
    ]);
    return {
      org_id: orgId,
      generated_at: now.toISOString(),
      windows: USAGE_WINDOWS.map((window) => ({
        window,
        since: (window === '24h' ? windows.day : windows.month).toISOString(),
        ...(runs && { runs: runUsage(inWindow(runs, window)) }),
        ...(models && { models: inWindow(models, window) }),
        ...(documents && { documents: inWindow(documents, window) }),
        ...(videos && { videos: inWindow(videos, window) }),
        ...(deliveries && { deliveries: inWindow(deliveries, window) }),
        ...(tokens && { tokens: inWindow(tokens, window) }),
      })),
      ...(failingEndpoints && {
        failing_endpoints: failingEndpoints.map((row) => ({
          endpoint_id: row.endpoint_id,
          url: row.url,
          enabled: row.enabled,
          failed_24h: row.failed_attempts,
          failed_deliveries_24h: row.failed_deliveries,
          last_failure_at: row.last_failure_at,
          last_error: row.last_error,
        })),
      }),
      ...(recentFailures && { recent_failures: recentFailures }),
      ...(apiKeys && { api_keys: apiKeys }),
    };
  }
}
