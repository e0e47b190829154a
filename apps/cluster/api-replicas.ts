import cluster, { type Worker } from 'node:cluster';
import { join } from 'node:path';
import { PYLON_NODE_FLAGS } from '@pylon/config';
import { serveClusterMetrics } from '@pylon/metrics';

/**
 * API_REPLICAS copies of the API (apps/api/main.js) behind one port, with Node's cluster module: the
 * replicas share the listening socket and the kernel gives each new connection to one of them; when one
 * exits, the primary starts a replacement. No proxy process and no dependency; across machines a load
 * balancer in front of the replicas does the same (docker/docker-compose.yml).
 *
 * Not Node's default round robin, where the primary accepts each connection and passes it to a replica:
 * a connection passed to a replica that is SIGKILLed before it takes it is never closed, and its client
 * hangs (cluster-failover e2e). With the shared socket, a dead replica's connections are reset and the
 * client retries, and those it had not accepted yet go to the other.
 */
function main(): void {
  process.title = 'pylon-api-replicas';
  const replicas = Number(process.env.API_REPLICAS ?? 2);
  if (!Number.isInteger(replicas) || replicas < 1) {
    console.error(`API_REPLICAS must be a whole number of at least 1, not ${process.env.API_REPLICAS}`);
    process.exit(1);
  }
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: join(__dirname, '..', 'api', 'main.js'), execArgv: [...PYLON_NODE_FLAGS] });
  serveClusterMetrics();
  let stopping = false;
  const start = (replica: number): Worker => {
    const worker = cluster.fork({ API_REPLICA: String(replica) });
    console.log(`pylon api replica ${replica} started (pid ${worker.process.pid})`);
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      console.log(`pylon api replica ${replica} (pid ${worker.process.pid}) exited (${signal ?? code}); starting another`);
      setTimeout(() => !stopping && start(replica), 1_000).unref();
    });
    return worker;
  };
  for (let replica = 1; replica <= replicas; replica++) start(replica);

  const stop = () => {
    stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker && !worker.isDead());
    if (running.length === 0) process.exit(0);
    let left = running.length;
    for (const worker of running) {
      worker.once('exit', () => --left === 0 && process.exit(0));
      worker.process.kill('SIGTERM');
    }
    setTimeout(() => running.forEach((worker) => worker.process.kill('SIGKILL')), 10_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main();
