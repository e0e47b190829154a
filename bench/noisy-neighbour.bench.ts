/**
 * (e) A noisy neighbour: a quiet organisation starts agent runs at a steady pace and measures each
 * run's latency (POST → `succeeded` seen by polling), first alone, then while a noisy organisation
 * floods the same stack: clients creating runs as fast as its key's rate limit lets them, every run
 * owing deliveries to webhook endpoints at a port where nothing listens (each fails and enters the
 * retry schedule until the endpoint's in-flight cap refuses more). The baseline is the quiet
 * organisation alone, in the same run, on the same stack: ratio = with the flood / alone.
 */
import { Http } from '../test/support/http';
import { Stack } from '../test/support/stack';
import { createTenant, type Tenant } from '../test/support/tenant';
import { freePort } from '@pylon/temporal';
import { envInt, log, round, sleep, summarize, type Benchmark, type BenchReport } from './support';

const POLL_MS = 20;
const RUN_TIMEOUT_MS = 120_000;

interface QuietFigures {
  runs: number;
  failed: number;
  latencyMs: ReturnType<typeof summarize>;
}

async function runAndWait(http: Http, tenant: Tenant, input: string): Promise<{ ok: boolean; latencyMs: number; status?: number }> {
  const started = performance.now();
  const created = await http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input } });
  if (created.status !== 200) return { ok: false, latencyMs: NaN, status: created.status };
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const run = await http.get(`/api/v1/agent-runs/${created.body.run_id}`, { token: tenant.key });
    if (run.body.status === 'succeeded') return { ok: true, latencyMs: performance.now() - started };
    if (run.body.status === 'failed') return { ok: false, latencyMs: NaN };
    await sleep(POLL_MS);
  }
  return { ok: false, latencyMs: NaN };
}

/** Open loop: one run every 1000 / rate ms for `seconds`, whatever the earlier ones are doing. */
async function quietLoad(http: Http, tenant: Tenant, rate: number, seconds: number): Promise<QuietFigures> {
  const count = rate * seconds;
  const pending: Array<Promise<{ ok: boolean; latencyMs: number }>> = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await sleep(Math.max(0, started + (i * 1000) / rate - performance.now()));
    pending.push(runAndWait(http, tenant, `What is Pylon? (quiet ${i})`));
  }
  const results = await Promise.all(pending);
  const ok = results.filter((result) => result.ok);
  return { runs: count, failed: count - ok.length, latencyMs: summarize(ok.map((result) => result.latencyMs)) };
}

export const noisyNeighbourBenchmark: Benchmark = {
  name: 'noisy-neighbour',
  description:
    "a quiet organisation's run latency at a steady pace, alone and while a noisy organisation floods the stack with runs (at its key's rate limit) whose webhooks all fail",
  budgetMinutes: () => 6,
  async run(): Promise<BenchReport> {
    const rate = envInt('BENCH_NOISY_QUIET_RATE', 4);
    const seconds = envInt('BENCH_NOISY_SECONDS', 15);
    const noisyClients = envInt('BENCH_NOISY_CLIENTS', 16);
    const noisyEndpoints = envInt('BENCH_NOISY_ENDPOINTS', 20);
    const stack = await Stack.start({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    try {
      const http = new Http(stack.url);
      const [quiet, noisy] = await Promise.all([createTenant(http), createTenant(http)]);
      const closedPort = await freePort();
      for (let i = 0; i < noisyEndpoints; i++) {
        const created = await http.post('/api/v1/webhook-endpoints', { token: noisy.key, body: { org_id: noisy.orgId, url: `http://127.0.0.1:${closedPort}/hook-${i}` } });
        if (created.status !== 201) throw new Error(`noisy endpoint ${i}: ${created.status} ${created.text}`);
      }
      log(`noisy-neighbour: warm-up`);
      await quietLoad(http, quiet, rate, 2);

      log(`noisy-neighbour: quiet organisation alone, ${rate} runs/s for ${seconds} s`);
      const alone = await quietLoad(http, quiet, rate, seconds);

      log(`noisy-neighbour: the same with ${noisyClients} noisy clients creating runs (each owing ${noisyEndpoints} failing deliveries)`);
      let flooding = true;
      const flood = { created: 0, rateLimited: 0, other: 0 };
      const floodClients = Array.from({ length: noisyClients }, async () => {
        while (flooding) {
          const created = await http.post('/api/v1/agent-runs', { token: noisy.key, body: { org_id: noisy.orgId, agent_version_id: noisy.versionId, input: 'flood' } });
          if (created.status === 200) flood.created++;
          else if (created.status === 429) {
            flood.rateLimited++;
            await sleep(Number(created.headers.get('retry-after') ?? '1') * 1000);
          } else flood.other++;
        }
      });
      await sleep(2_000);
      const withFlood = await quietLoad(http, quiet, rate, seconds);
      flooding = false;
      await Promise.all(floodClients);

      const rows = [
        { metric: 'quiet run latency p50 (ms)', pylon: withFlood.latencyMs.p50, baseline: alone.latencyMs.p50, digits: 1 },
        { metric: 'quiet run latency p99 (ms)', pylon: withFlood.latencyMs.p99, baseline: alone.latencyMs.p99, digits: 1 },
        { metric: 'quiet run latency mean (ms)', pylon: withFlood.latencyMs.mean, baseline: alone.latencyMs.mean, digits: 1 },
        { metric: 'quiet runs failed', pylon: withFlood.failed, baseline: alone.failed, digits: 0 },
      ];
      return {
        parameters: { quietRunsPerSecond: rate, seconds, noisyClients, noisyEndpoints, pollMs: POLL_MS, model: 'local/extractive' },
        rows,
        pylon: { side: 'quiet organisation during the flood', ...withFlood, flood: { ...flood, runsPerSecond: round(flood.created / (seconds + 2), 1) } },
        baseline: { side: 'quiet organisation alone', ...alone },
        notes: ['pylon = with the flood, baseline = the quiet organisation alone on the same stack; goal: ratio ≤ 1.5 for p50 and p99'],
      };
    } finally {
      await stack.stop();
    }
  },
};
