import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePrometheusText, samplesOf, valueOf } from '../../test/support/prometheus';
import { PylonMetrics } from './pylon-metrics';

const API_ONLY = ['http_request_duration_seconds', 'pylon_workflows_started_total', 'pylon_rate_limit_rejections_total', 'pylon_task_queue_backlog'];
const WORKER_ONLY = ['pylon_webhook_delivery_attempts_total', 'pylon_workflows_completed_total'];

async function scrape(metrics: PylonMetrics) {
  return parsePrometheusText(await metrics.render());
}

describe('PylonMetrics', () => {
  it('the API exposes its metrics and the default process metrics, not the worker ones', async () => {
    const metrics = new PylonMetrics('api');
    metrics.observeHttpRequest('GET', '/api/v1/agent-runs/:runId', 200, 0.012);
    metrics.countWorkflowStarted('agentRunWorkflow');
    metrics.countRateLimitRejection('api_key_rate');
    metrics.countWebhookAttempt('delivered');
    const exposition = await scrape(metrics);
    for (const name of API_ONLY) assert.ok(exposition.types.has(name), name);
    for (const name of WORKER_ONLY) assert.ok(!exposition.types.has(name), name);
    assert.ok(exposition.types.has('process_cpu_user_seconds_total'));
    assert.equal(exposition.types.get('http_request_duration_seconds'), 'histogram');
    assert.equal(valueOf(exposition, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/agent-runs/:runId', status: '200' }), 1);
    assert.equal(valueOf(exposition, 'pylon_workflows_started_total', { workflow_type: 'agentRunWorkflow' }), 1);
    assert.equal(valueOf(exposition, 'pylon_workflows_started_total', { workflow_type: 'videoGenerationWorkflow' }), 0, 'known types start at 0');
    assert.equal(valueOf(exposition, 'pylon_rate_limit_rejections_total', { limit: 'api_key_rate' }), 1);
    assert.equal(valueOf(exposition, 'pylon_rate_limit_rejections_total', { limit: 'webhook_endpoints' }), 0);
  });

  it('the worker exposes delivery attempts by result and workflow outcomes, every known series from 0', async () => {
    const metrics = new PylonMetrics('worker');
    metrics.countWebhookAttempt('gone');
    metrics.countWebhookAttempt('gone');
    metrics.countWorkflowEnded('agentRunWorkflow', 'completed');
    metrics.countWorkflowStarted('agentRunWorkflow');
    const exposition = await scrape(metrics);
    for (const name of API_ONLY) assert.ok(!exposition.types.has(name), name);
    assert.deepEqual(
      samplesOf(exposition, 'pylon_webhook_delivery_attempts_total')
        .map((sample) => sample.labels.result)
        .sort(),
      ['delivered', 'error', 'gone', 'refused', 'retry'],
    );
    assert.equal(valueOf(exposition, 'pylon_webhook_delivery_attempts_total', { result: 'gone' }), 2);
    assert.equal(valueOf(exposition, 'pylon_workflows_completed_total', { workflow_type: 'agentRunWorkflow', outcome: 'completed' }), 1);
    assert.equal(valueOf(exposition, 'pylon_workflows_completed_total', { workflow_type: 'agentRunWorkflow', outcome: 'failed' }), 0);
  });

  it('both processes count the statements they send to the database, by statement', async () => {
    for (const process of ['api', 'worker'] as const) {
      const metrics = new PylonMetrics(process);
      metrics.countDbStatement('SELECT 1');
      metrics.countDbStatement('SELECT 1');
      metrics.countDbStatement('COMMIT');
      const exposition = await scrape(metrics);
      assert.equal(exposition.types.get('pylon_db_statements_total'), 'counter');
      assert.equal(valueOf(exposition, 'pylon_db_statements_total', { statement: 'SELECT 1' }), 2);
      assert.equal(valueOf(exposition, 'pylon_db_statements_total', { statement: 'COMMIT' }), 1);
      // Counted between scrapes, the sums add to what the counter already showed: it never goes back.
      metrics.countDbStatement('SELECT 1');
      const next = await scrape(metrics);
      assert.equal(valueOf(next, 'pylon_db_statements_total', { statement: 'SELECT 1' }), 3);
      assert.equal(valueOf(next, 'pylon_db_statements_total', { statement: 'COMMIT' }), 1);
    }
  });

  it('reads the task queue backlog at each scrape; an unreadable backlog has no samples, not stale ones', async () => {
    const metrics = new PylonMetrics('api');
    let backlog: number | Error = 7;
    metrics.reportTaskQueueBacklog(async () => {
      if (backlog instanceof Error) throw backlog;
      return [
        { taskQueue: 'pylon.agent-runs', taskType: 'workflow', tasks: backlog },
        { taskQueue: 'pylon.agent-runs', taskType: 'activity', tasks: 1 },
      ];
    });
    let exposition = await scrape(metrics);
    assert.equal(valueOf(exposition, 'pylon_task_queue_backlog', { task_queue: 'pylon.agent-runs', task_type: 'workflow' }), 7);
    assert.equal(valueOf(exposition, 'pylon_task_queue_backlog', { task_queue: 'pylon.agent-runs', task_type: 'activity' }), 1);
    backlog = new Error('Temporal is down');
    exposition = await scrape(metrics);
    assert.deepEqual(samplesOf(exposition, 'pylon_task_queue_backlog'), []);
  });
});
