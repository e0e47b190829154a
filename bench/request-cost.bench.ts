/**
 * Where the API's time per request goes: the authenticated `GET /api/v1/agent-runs/{id}` of
 * agent-run-read, on an API process of its own started with `--cpu-prof`, against the bare route with the
 * same prepared read (baseline-read-server.ts, profiled the same way), and against that read behind a bare
 * Nest route (baseline-nest-read-server.ts): the framework's floor. Each side is loaded in turn; only
 * the samples taken while its load ran count, and each is charged to a stage of the pipeline
 * (cpu-profile-stages.ts). The table is CPU µs per request by stage, plus each server's whole CPU per
 * request from /proc over the same seconds (which includes the profiler's own cost); a second table puts
 * the three side by side with what Pylon adds above the bare Nest route, stage by stage.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack } from '../test/support/stack';
import { runAutocannon } from './autocannon';
import { succeededRun } from './agent-run-read.bench';
import { startBaselineServer } from './baseline-server';
import { OTHER_STAGE, REQUEST_STAGES, monotonicMicros, profileStages, type Hotspot } from './cpu-profile-stages';
import { measureCpu, withChildren } from './process-cpu';
import { BENCH_LIMITS_ENV, envInt, log, round, type BenchContext, type Benchmark, type BenchReport, type Grid } from './support';

const POOL_SIZE = 10; // the API's DB_POOL_SIZE default
const BARE_SERVER = 'baseline-read-server';
const NEST_SERVER = 'baseline-nest-read-server';

export const requestCostBenchmark: Benchmark = {
  name: 'request-cost',
  description:
    'CPU µs per request by stage of the authenticated GET /api/v1/agent-runs/{id} (a --cpu-prof profile), against the bare route with the same prepared read',
  async run(context: BenchContext): Promise<BenchReport> {
    const durationSeconds = envInt('BENCH_COST_SECONDS', 10);
    const warmupSeconds = envInt('BENCH_COST_WARMUP_SECONDS', 3);
    const connections = envInt('BENCH_COST_CONNECTIONS', 20);
    const intervalUs = envInt('BENCH_COST_PROFILE_INTERVAL_US', 250);

    const tenant = await context.tenant();
    const runId = await succeededRun(context);

    // Both servers of this benchmark write a profile when they exit; the shared stack does not.
    const profileDir = mkdtempSync(join(tmpdir(), 'pylon-request-cost-'));
    const saved = { dir: process.env.PYLON_CPU_PROFILE_DIR, interval: process.env.PYLON_CPU_PROFILE_INTERVAL_US };
    process.env.PYLON_CPU_PROFILE_DIR = profileDir;
    process.env.PYLON_CPU_PROFILE_INTERVAL_US = String(intervalUs);
    let api: Stack | undefined;
    let baseline: Awaited<ReturnType<typeof startBaselineServer>> | undefined;
    let nestBaseline: Awaited<ReturnType<typeof startBaselineServer>> | undefined;
    try {
      // At the product's default log level, so the access line of every request is part of what is measured.
      api = await Stack.start({ env: { ...BENCH_LIMITS_ENV, LOG_LEVEL: process.env.BENCH_COST_LOG_LEVEL ?? 'info' }, worker: false, apiReplicas: 1 });
      const baselineEnv = { DATABASE_URL: context.infra.databaseUrl, POOL_SIZE: String(POOL_SIZE) };
      baseline = await startBaselineServer(BARE_SERVER, baselineEnv);
      nestBaseline = await startBaselineServer(NEST_SERVER, baselineEnv);
    } catch (error) {
      await Promise.all([api?.stop(), baseline?.process.stop()]);
      throw error;
    } finally {
      process.env.PYLON_CPU_PROFILE_DIR = saved.dir;
      process.env.PYLON_CPU_PROFILE_INTERVAL_US = saved.interval;
      if (saved.dir === undefined) delete process.env.PYLON_CPU_PROFILE_DIR;
      if (saved.interval === undefined) delete process.env.PYLON_CPU_PROFILE_INTERVAL_US;
    }
    const sides = {
      pylon: {
        url: `${api.url}/api/v1/agent-runs/${runId}`,
        headers: { authorization: `Bearer ${tenant.key}` },
        pids: () => withChildren(api!.api.child.pid),
      },
      baseline: {
        url: `${baseline.url}/prepared/orgs/${tenant.orgId}/runs/${runId}`,
        headers: {},
        pids: () => withChildren(baseline!.process.child.pid),
      },
      nestBaseline: {
        url: `${nestBaseline.url}/prepared/orgs/${tenant.orgId}/runs/${runId}`,
        headers: {},
        pids: () => withChildren(nestBaseline!.process.child.pid),
      },
    };
    const windows: Record<string, { fromUs: number; toUs: number; requests: number; cpuUsPerRequest: number; requestsPerSecond: number }> = {};
    try {
      for (const [name, side] of Object.entries(sides)) {
        log(`${name}: warm-up ${warmupSeconds} s, then ${durationSeconds} s profiled with ${connections} connections`);
        await runAutocannon({ url: side.url, headers: side.headers, connections, duration: warmupSeconds, workers: 1 });
        const cpu = measureCpu({ server: side.pids });
        const fromUs = monotonicMicros();
        const result = await runAutocannon({ url: side.url, headers: side.headers, connections, duration: durationSeconds, workers: 1 });
        const toUs = monotonicMicros();
        const used = cpu().server!;
        assert.equal(result.non2xx + result.errors, 0, `${name}: ${JSON.stringify(result.statusCodeStats)}`);
        windows[name] = {
          fromUs,
          toUs,
          requests: result['2xx'],
          cpuUsPerRequest: (used * 1_000) / result['2xx'],
          requestsPerSecond: round(result['2xx'] / result.duration, 1),
        };
      }
    } finally {
      await api.stop();
      await Promise.all([baseline.process.stop(), nestBaseline.process.stop()]);
    }

    const profiles = readdirSync(profileDir).filter((file) => file.endsWith('.cpuprofile'));
    const profileOf = (name: string) => {
      const servers: Record<string, (file: string) => boolean> = {
        baseline: (file) => file.startsWith(BARE_SERVER),
        nestBaseline: (file) => file.startsWith(NEST_SERVER),
        pylon: (file) => !file.startsWith(BARE_SERVER) && !file.startsWith(NEST_SERVER),
      };
      const file = profiles.find(servers[name]!);
      if (!file) throw new Error(`no CPU profile for ${name} in ${profileDir}: ${profiles.join(', ')}`);
      return join(profileDir, file);
    };
    const hotspots: Record<string, Hotspot[]> = {};
    const perRequest = Object.fromEntries(
      Object.entries(windows).map(([name, window]) => {
        const profiled = profileStages(profileOf(name), window.fromUs, window.toUs);
        hotspots[name] = profiled.hotspots.slice(0, 60).map((spot) => ({ ...spot, us: round(spot.us / window.requests, 2) }));
        return [name, new Map([...profiled.times].map(([stage, us]) => [stage, us / window.requests]))];
      }),
    );
    if (process.env.BENCH_COST_KEEP_PROFILES) log(`profiles kept in ${profileDir}`);
    else rmSync(profileDir, { recursive: true, force: true });

    const stageNames = [...REQUEST_STAGES.map((stage) => stage.name), OTHER_STAGE];
    const sampled = (name: string) => [...perRequest[name]!.values()].reduce((sum, us) => sum + us, 0);
    const pylon = windows.pylon!;
    const bare = windows.baseline!;
    const nest = windows.nestBaseline!;
    const shownStages = stageNames.filter((stage) => Object.values(perRequest).some((stages) => (stages.get(stage) ?? 0) >= 0.05));
    const rows = shownStages
      .filter((stage) => (perRequest.pylon!.get(stage) ?? 0) >= 0.05 || (perRequest.baseline!.get(stage) ?? 0) >= 0.05)
      .map((stage) => ({
        metric: `µs/request: ${stage}`,
        pylon: round(perRequest.pylon!.get(stage)!, 1),
        baseline: round(perRequest.baseline!.get(stage)!, 1),
        digits: 1,
      }));
    const usOf = (name: string, stage: string) => round(perRequest[name]!.get(stage) ?? 0, 1);
    const aboveNest: Grid = {
      title:
        'µs of CPU per request by stage: Pylon, the same prepared read behind a bare Nest route and a bare Fastify route, and what Pylon adds above the bare Nest route',
      header: ['stage', 'Pylon', 'bare Nest route', 'bare Fastify route', 'Pylon − bare Nest'],
      rows: [
        ...shownStages.map((stage) => [
          stage,
          usOf('pylon', stage),
          usOf('nestBaseline', stage),
          usOf('baseline', stage),
          round(usOf('pylon', stage) - usOf('nestBaseline', stage), 1),
        ]),
        [
          'every stage (sampled, main thread)',
          round(sampled('pylon'), 1),
          round(sampled('nestBaseline'), 1),
          round(sampled('baseline'), 1),
          round(sampled('pylon') - sampled('nestBaseline'), 1),
        ],
        [
          'server process CPU (/proc, all threads)',
          round(pylon.cpuUsPerRequest, 1),
          round(nest.cpuUsPerRequest, 1),
          round(bare.cpuUsPerRequest, 1),
          round(pylon.cpuUsPerRequest - nest.cpuUsPerRequest, 1),
        ],
        ['requests/s while profiled', pylon.requestsPerSecond, nest.requestsPerSecond, bare.requestsPerSecond, null],
      ],
    };
    return {
      parameters: {
        connections,
        secondsProfiled: durationSeconds,
        warmupSeconds,
        profileIntervalUs: intervalUs,
        baselinePoolSize: POOL_SIZE,
        loadGenerator: 'autocannon (1 worker thread)',
      },
      rows: [
        ...rows,
        {
          metric: 'µs/request: every stage (sampled, main thread)',
          pylon: round(sampled('pylon'), 1),
          baseline: round(sampled('baseline'), 1),
          digits: 1,
        },
        {
          metric: 'µs/request: server process CPU (/proc, all threads)',
          pylon: round(pylon.cpuUsPerRequest, 1),
          baseline: round(bare.cpuUsPerRequest, 1),
          digits: 1,
        },
        { metric: 'requests/s while profiled', pylon: pylon.requestsPerSecond, baseline: bare.requestsPerSecond, digits: 0 },
      ],
      pylon: { url: '/api/v1/agent-runs/{id}', ...pylon, stages: Object.fromEntries(perRequest.pylon!), hotspotsUsPerRequest: hotspots.pylon },
      baseline: {
        url: '/prepared/orgs/{orgId}/runs/{runId}',
        ...bare,
        stages: Object.fromEntries(perRequest.baseline!),
        hotspotsUsPerRequest: hotspots.baseline,
        nestRoute: {
          url: '/prepared/orgs/{orgId}/runs/{runId}',
          framework: 'Nest on Fastify, no guard, pipe, interceptor or hook',
          ...nest,
          stages: Object.fromEntries(perRequest.nestBaseline!),
          hotspotsUsPerRequest: hotspots.nestBaseline,
        },
      },
      tables: [aboveNest],
      notes: [
        'Each sample of the profile is charged to the stage of the frame nearest its leaf that a stage claims (bench/cpu-profile-stages.ts); Node builtins and V8 frames no stage claims pass it to their caller.',
        'Profiling costs CPU too: requests/s here are lower than in agent-run-read, and the /proc row includes the profiler; compare stages with each other and between commits, not with agent-run-read.',
        '"native, outside JavaScript" is V8 and Node working outside a JS frame (the HTTP parser, sockets, compiling); garbage collection is V8’s.',
      ],
    };
  },
};
