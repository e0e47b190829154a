import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) that are read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  /** Microseconds on the monotonic clock (the clock of `process.hrtime`, on Linux). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A stage of the request pipeline and the frames that belong to it, by the frame's script URL (or V8's pseudo-frame name). */
export interface Stage {
  name: string;
  matches: (url: string, functionName: string) => boolean;
}

const inFile =
  (...parts: string[]) =>
  (url: string) =>
    parts.some((part) => url.includes(part));

/**
 * The stages of an authenticated read, most specific first. A sample is charged to the stage of the
 * frame nearest its leaf that any stage claims: a hash computed for the key check is the guard's, a
 * JSON.stringify under the reply's serializer is serialisation. Frames no stage claims (Node's
 * async hooks, V8 builtins) pass the sample on to their caller.
 */
export const REQUEST_STAGES: Stage[] = [
  { name: 'usage counter (per-key request counts)', matches: inFile('api-key-usage-counter') },
  { name: 'rate bucket', matches: inFile('/libs/limits/', 'rate-limit-headers') },
  { name: "guard: the key's lookup and scope", matches: inFile('/apps/api/auth/', '/libs/api-keys/') },
  { name: 'strict-query check', matches: inFile('common/query-params') },
  {
    name: 'validation (pipes, UUID param)',
    matches: inFile('validation.pipe', 'body-shape.pipe', 'uuid-param', 'class-validator', 'class-transformer'),
  },
  { name: 'security headers hook', matches: inFile('security-headers') },
  { name: 'request id', matches: inFile('common/request-id', 'libs/logging/request-id') },
  {
    name: 'logging (context, access line)',
    matches: inFile('request-logging', '/libs/logging/', '/pino', 'nestjs-pino', 'sonic-boom', 'thread-stream'),
  },
  { name: 'metrics (http histogram)', matches: inFile('http-metrics', 'prom-client', '/libs/metrics/') },
  { name: 'repository call: pg driver', matches: inFile('/node_modules/pg/', '/pg-protocol/', '/pg-pool/', '/pg-types/', 'postgres-') },
  { name: 'repository call: TypeORM', matches: inFile('/node_modules/typeorm/') },
  { name: 'repository call: Pylon repository', matches: inFile('/libs/db/') },
  { name: 'handler and view (controller, service, mapping)', matches: inFile('/apps/api/agent-runs/', '/libs/agent-runs/', '/apps/api/common/') },
  {
    name: 'serialisation (JSON, reply)',
    matches: inFile('fast-json-stringify', 'safe-stable-stringify', 'fastify/lib/reply', 'fastify/lib/error-serializer'),
  },
  { name: 'Nest (router, guards, interceptors, pipes plumbing)', matches: inFile('/@nestjs/', '/rxjs/') },
  {
    name: 'Fastify (routing, hooks, request)',
    matches: inFile('/fastify/', 'find-my-way', '/avvio/', '/light-my-request/', 'fast-querystring', '/qs/'),
  },
  {
    name: 'Node HTTP, sockets and streams',
    matches: inFile('node:_http', 'node:http', 'node:internal/http', 'node:net', 'node:internal/stream', 'node:stream', 'node:internal/streams'),
  },
  { name: 'baseline route (its own code)', matches: inFile('/bench/baseline-') },
  { name: 'garbage collection', matches: (_url, name) => name === '(garbage collector)' },
  { name: 'native, outside JavaScript (program)', matches: (_url, name) => name === '(program)' },
];

export const OTHER_STAGE = 'other (unattributed)';

/** A frame where samples were taken (self time), with its stage. */
export interface Hotspot {
  stage: string;
  frame: string;
  us: number;
}

/**
 * Microseconds of CPU each stage took in a profile's samples between `fromUs` and `toUs` (the monotonic
 * clock of the profiled process, which on Linux is the clock of `process.hrtime` in every process). Idle
 * samples are left out.
 * With it, the frames the samples were taken in (self time), most first: what to look at inside a stage.
 */
export function profileStages(
  profileFile: string,
  fromUs: number,
  toUs: number,
  stages: Stage[] = REQUEST_STAGES,
): { times: Map<string, number>; hotspots: Hotspot[] } {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOfNode = new Map<number, string | null>();
  const stageOf = (id: number): string | null => {
    if (stageOfNode.has(id)) return stageOfNode.get(id)!;
    const frame = byId.get(id)!.callFrame;
    const own = stages.find((stage) => stage.matches(frame.url, frame.functionName))?.name;
    const up = parent.get(id);
    const stage = own ?? (frame.functionName === '(idle)' ? null : up === undefined ? OTHER_STAGE : stageOf(up));
    stageOfNode.set(id, stage);
    return stage;
  };

  const times = new Map<string, number>([...stages.map((stage) => [stage.name, 0] as [string, number]), [OTHER_STAGE, 0]]);
  const selfTimes = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    // A sample's time is the gap to the next one: the profiler's interval, or longer when it was late.
    const spent = profile.timeDeltas[i + 1] ?? 0;
    if (at < fromUs || at > toUs) continue;
    const stage = stageOf(profile.samples[i]!);
    if (!stage) continue;
    times.set(stage, times.get(stage)! + spent);
    selfTimes.set(profile.samples[i]!, (selfTimes.get(profile.samples[i]!) ?? 0) + spent);
  }
  const byFrame = new Map<string, Hotspot>();
  for (const [id, us] of selfTimes) {
    const { functionName, url } = byId.get(id)!.callFrame;
    const frame = `${functionName || '(anonymous)'} ${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/dist-test\//, '')}`.trim();
    const key = `${stageOf(id)}|${frame}`;
    const spot = byFrame.get(key) ?? { stage: stageOf(id)!, frame, us: 0 };
    spot.us += us;
    byFrame.set(key, spot);
  }
  return { times, hotspots: [...byFrame.values()].sort((a, b) => b.us - a.us) };
}

/** Now on the monotonic clock, in microseconds, as the profiles count it. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
