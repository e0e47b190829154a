/**
 * The flags every long-running Pylon process (API, worker) is started with. nestjs-pino keeps each
 * request's logger in an AsyncLocalStorage; on Node 22 that store is carried by async hooks, which tax
 * every promise in the process. With this flag it is carried by the async context frame instead, as
 * Node 24 does by default (bench agent-run-read: 12–16% more requests/s, 2026-11-23). Node 22 accepts
 * the flag only on the command line, not in NODE_OPTIONS.
 */
export const PYLON_NODE_FLAGS: readonly string[] = ['--experimental-async-context-frame'];

/** What to warn about when a process was started without PYLON_NODE_FLAGS (it works, at a higher CPU cost per request); null when it was not. */
export function missingNodeFlagsWarning(execArgv: readonly string[] = process.execArgv): string | null {
  const missing = PYLON_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
  return missing.length === 0
    ? null
    : `started without ${missing.join(' ')}; every request costs more CPU (see PYLON_NODE_FLAGS, or use npm run start:api / start:worker)`;
}

/** The oldest Node Pylon runs on: 22 LTS (Node 20 is end-of-life; nestjs-pino and others require 22.12). */
export const MINIMUM_NODE = [22, 12] as const;

/**
 * Refuses to start on an older Node. `npm install` brings Node 22 (the node-<platform> package) into
 * node_modules/.bin, which npm scripts put first on the PATH, so `npm start` and `npm test` use it.
 */
export function requireSupportedNode(version: string = process.versions.node): void {
  const [major, minor] = version.split('.').map(Number);
  const [minMajor, minMinor] = MINIMUM_NODE;
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return;
  throw new Error(
    `Pylon needs Node ${minMajor}.${minMinor} or later and this is Node ${version}. ` +
      'Run it through npm (npm start, npm test, npm run start:api), which uses the Node 22 that npm install put in node_modules/.bin, or run node_modules/.bin/node.',
  );
}
