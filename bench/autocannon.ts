/** A typed door to autocannon's programmatic API (the package ships no types; only what the benchmarks use). */

export interface AutocannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  connections?: number;
  /** Seconds. */
  duration?: number;
  pipelining?: number;
  /** Worker threads firing the requests; 0 = this thread. */
  workers?: number;
  timeout?: number;
  title?: string;
}

interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
}

export interface AutocannonResult {
  title?: string;
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  start: Date;
  finish: Date;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  /** Milliseconds (autocannon's histogram has 1 ms resolution; `mean` is exact). */
  latency: Histogram & { totalCount: number };
  /** Requests per second, sampled each second. */
  requests: Histogram & { sent: number };
  throughput: Histogram;
}

const autocannon = require('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

export function runAutocannon(options: AutocannonOptions): Promise<AutocannonResult> {
  return autocannon(options);
}
