/**
 * MCP tools: C clients each create runs (POST) of a version with one MCP server and follow each run's
 * event stream until it succeeds, N runs in all, on `local/extractive` (offline), whose input names
 * `shop.lookup_order`: the run lists the server's tools, the model calls the tool, and quotes its result.
 * The server is the tests' real MCP server (the SDK's McpServer over Streamable HTTP) on loopback.
 * Baseline on the same Temporal server and the same MCP server: a bare client `execute`s a workflow that
 * lists the tools and calls the same tool through the same SDK, each an activity, on a bare Worker.
 */
import { randomBytes } from 'node:crypto';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Http } from '../test/support/http';
import { TestMcpServer } from '../test/support/mcp-server';
import { Stack } from '../test/support/stack';
import { createTenant, createVersion } from '../test/support/tenant';
import { followEvents } from './agent-run-e2e.bench';
import type { BaselineMcpActivities, baselineMcpWorkflow } from './baseline-workflow/mcp';
import {
  BENCH_LIMITS_ENV,
  envInt,
  log,
  quietTemporalRuntime,
  round,
  runConcurrently,
  summarize,
  type BenchContext,
  type Benchmark,
  type BenchReport,
  workflowTimeline,
} from './support';
import { agentRunWorkflowId } from '@pylon/contracts';

interface Outcome {
  ok: boolean;
  latencyMs: number;
  workflowId?: string;
  error?: string;
}

/** The run at the median latency: where its time went, as offsets of its workflow's history events. */
async function medianTimeline(client: Client, outcomes: Outcome[]) {
  const ok = outcomes.filter((outcome) => outcome.ok && outcome.workflowId).sort((a, b) => a.latencyMs - b.latencyMs);
  const median = ok[Math.floor(ok.length / 2)];
  return median ? { latencyMs: round(median.latencyMs, 1), ...(await workflowTimeline(client, median.workflowId!)) } : undefined;
}

function figures(outcomes: Outcome[], wallMs: number) {
  const ok = outcomes.filter((outcome) => outcome.ok);
  return {
    runs: outcomes.length,
    succeeded: ok.length,
    failed: outcomes.length - ok.length,
    firstErrors: [...new Set(outcomes.filter((outcome) => !outcome.ok).map((outcome) => outcome.error))].slice(0, 5),
    wallSeconds: round(wallMs / 1000, 2),
    runsPerSecond: round((ok.length / wallMs) * 1000, 2),
    latencyMs: summarize(ok.map((outcome) => outcome.latencyMs)),
  };
}

/** The baseline's activities: the SDK's client over plain fetch, one connection per activity, as Pylon's. */
function baselineActivities(url: string): BaselineMcpActivities {
  const withClient = async <T>(work: (client: McpClient) => Promise<T>): Promise<T> => {
    const client = new McpClient({ name: 'bench-baseline', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer bench' } } });
    await client.connect(transport);
    try {
      return await work(client);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  };
  return {
    listTools: () => withClient(async (client) => (await client.listTools()).tools.map((tool) => tool.name)),
    callTool: (orderId) =>
      withClient(async (client) => {
        const result = await client.callTool({ name: 'lookup_order', arguments: { order_id: orderId } });
        return (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('\n');
      }),
  };
}

export const mcpToolsBenchmark: Benchmark = {
  name: 'mcp-tools',
  description:
    'a run that lists an MCP server and calls one of its tools (local/extractive, real SDK McpServer on loopback), created and followed over the API, vs a bare Temporal workflow making the same MCP list + call through the same SDK',
  async run(context: BenchContext): Promise<BenchReport> {
    const concurrency = envInt('BENCH_MCP_CONCURRENCY', 8);
    const count = envInt('BENCH_MCP_RUNS', 200);
    const warmup = concurrency;
    const mcp = await TestMcpServer.start();
    const stack = await Stack.start({
      env: { ...BENCH_LIMITS_ENV, WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback', SECRETS_KEY: randomBytes(32).toString('base64') },
    });
    const temporalAddress = context.infra.temporalAddress;
    const connection = await Connection.connect({ address: temporalAddress });
    const client = new Client({ connection });
    try {
      const http = new Http(stack.url);
      const tenant = await createTenant(http);
      const versionId = await createVersion(http, tenant.key, tenant.agentId, {
        model: 'local/extractive',
        tools: [
          { type: 'mcp', server_label: 'shop', server_url: mcp.url, allowed_tools: ['lookup_order'], headers: { Authorization: 'Bearer bench' } },
        ],
      });
      const pylonRun = async (index: number): Promise<Outcome> => {
        const started = performance.now();
        const created = await http.post('/api/v1/agent-runs', {
          token: tenant.key,
          body: { org_id: tenant.orgId, agent_version_id: versionId, input: `Please use shop.lookup_order for order ${index}.` },
        });
        if (created.status !== 200) return { ok: false, latencyMs: performance.now() - started, error: `POST ${created.status}` };
        const runId = created.body.run_id as string;
        const finished = await followEvents(http.baseUrl, tenant.key, runId);
        const latencyMs = performance.now() - started;
        if ('error' in finished) return { ok: false, latencyMs, error: finished.error };
        const run = finished.run as unknown as { status: string; error: string | null; output?: string };
        const ok = run.status === 'succeeded' && (run.output ?? '').includes(`order ${index}: shipped by DHL`);
        return { ok, latencyMs, workflowId: agentRunWorkflowId(runId), error: ok ? undefined : `${run.status}: ${run.error ?? run.output}` };
      };
      log(`pylon: ${warmup} warm-up runs, then ${count} runs with ${concurrency} clients`);
      await runConcurrently(warmup, concurrency, (index) => pylonRun(100_000 + index));
      const pylon = await runConcurrently(count, concurrency, pylonRun);

      quietTemporalRuntime();
      const taskQueue = `bench-mcp-${randomBytes(4).toString('hex')}`;
      const workerConnection = await NativeConnection.connect({ address: temporalAddress });
      const worker = await Worker.create({
        connection: workerConnection,
        taskQueue,
        workflowsPath: require.resolve('./baseline-workflow/mcp'),
        activities: baselineActivities(mcp.url),
      });
      const workerRunning = worker.run();
      const baselineRun = async (index: number, prefix = ''): Promise<Outcome> => {
        const started = performance.now();
        try {
          const output = await client.workflow.execute<typeof baselineMcpWorkflow>('baselineMcpWorkflow', {
            taskQueue,
            workflowId: `${taskQueue}-${prefix}${index}`,
            args: [String(index)],
            workflowExecutionTimeout: 30_000,
          });
          const ok = output === `order ${index}: shipped by DHL`;
          return { ok, latencyMs: performance.now() - started, workflowId: `${taskQueue}-${prefix}${index}`, error: ok ? undefined : output };
        } catch (error) {
          return { ok: false, latencyMs: performance.now() - started, error: String(error) };
        }
      };
      let baseline: { results: Outcome[]; wallMs: number };
      try {
        log(`baseline: ${warmup} warm-up runs, then ${count} runs with ${concurrency} clients (task queue ${taskQueue})`);
        await runConcurrently(warmup, concurrency, (index) => baselineRun(index, 'warmup-'));
        baseline = await runConcurrently(count, concurrency, (index) => baselineRun(index));
      } finally {
        worker.shutdown();
        await workerRunning;
        await workerConnection.close();
      }
      const p = figures(pylon.results, pylon.wallMs);
      const b = figures(baseline.results, baseline.wallMs);
      if (p.failed) log(`pylon: ${p.failed} runs failed, e.g. ${p.firstErrors[0]}`);
      if (b.failed) log(`baseline: ${b.failed} runs failed, e.g. ${b.firstErrors[0]}`);
      return {
        parameters: { concurrency, runs: count, warmupRunsPerSide: warmup, model: 'local/extractive', goal: 'runs/s ratio ≥ 0.8' },
        rows: [
          { metric: 'runs/s', pylon: p.runsPerSecond, baseline: b.runsPerSecond },
          { metric: 'latency p50 (ms)', pylon: p.latencyMs.p50, baseline: b.latencyMs.p50, digits: 1 },
          { metric: 'latency p99 (ms)', pylon: p.latencyMs.p99, baseline: b.latencyMs.p99, digits: 1 },
          { metric: 'latency mean (ms)', pylon: p.latencyMs.mean, baseline: b.latencyMs.mean, digits: 1 },
          { metric: 'failed runs', pylon: p.failed, baseline: b.failed, digits: 0 },
        ],
        pylon: { ...p, mcpServerCalls: mcp.callsOf('lookup_order').length, medianRun: await medianTimeline(client, pylon.results) },
        baseline: {
          ...b,
          medianRun: await medianTimeline(client, baseline.results),
          taskQueue,
          workflow: 'baselineMcpWorkflow (two activities: list the tools, call lookup_order; one SDK connection each)',
        },
        notes: [
          "pylon latency = POST + the run's event stream until its terminal event; baseline latency = client.workflow.execute (start + long-poll of the result).",
          'pylon run: listMcpTools (activity) → takeTurn (local activity, the model calls shop.lookup_order) → callMcpTool (activity) → takeTurn (answers, quoting the result); each MCP activity opens its own SDK connection (initialize, request, session end) through the guarded fetch, opening the sealed Authorization header; events and conversation items recorded in the database.',
          'baseline: the same two MCP exchanges through the same SDK (plain fetch), as two activities of a bare workflow, no database.',
          'both sides share the MCP server in this process (stateless Streamable HTTP, JSON responses), the Temporal dev server and the machine.',
        ],
      };
    } finally {
      await client.connection.close();
      await stack.stop();
      await mcp.stop();
    }
  },
};
