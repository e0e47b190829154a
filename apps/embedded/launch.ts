import ipaddr from 'ipaddr.js';
import type { DemoTenant } from './demo-tenant';

/** What a launcher started, stopped in reverse order on SIGINT or SIGTERM, or by `shutdown(code)`, which then exits. */
export function stopOnSignals(): { stops: Array<() => Promise<void>>; shutdown: (code: number) => Promise<void> } {
  const stops: Array<() => Promise<void>> = [];
  const shutdown = async (code: number) => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));
  return { stops, shutdown };
}

/** Waits until the API at `url` answers /readyz with 200. */
export async function waitUntilReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API at ${url} was not ready within ${timeoutMs / 1000}s`);
}

/**
 * Which private webhook targets a stack on one machine allows: what the operator listed, else a receiver
 * on this machine, but only while the API itself is reachable on loopback alone; nothing else private.
 */
export function webhookTargetsOnOneMachine(host: string): string {
  return process.env.WEBHOOK_ALLOWED_PRIVATE_TARGETS ?? (isLoopbackHost(host) ? 'loopback' : '');
}

/** Whether the API listens on this machine's loopback only (not a LAN address, not every interface). */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback');
}

export interface RunningStack {
  apiUrl: string;
  temporalUi: string | undefined;
  dataDir: string;
  webhookTargets: string;
  admin: { token: string; generated: boolean; file: string };
  demo: DemoTenant;
  /** Lines on the processes this start runs (the cluster topology lists its replicas). */
  topology?: string[];
}

/** What `npm start` and `npm run start:cluster` print once the API is ready: where everything is, and the demo tenant. */
export function runningMessage({ apiUrl, temporalUi, dataDir, webhookTargets, admin, demo, topology = [] }: RunningStack): string {
  return `
Pylon is running.
  API           ${apiUrl}
  Console       ${apiUrl}/console/   (sign in with an API key)
  API docs      ${apiUrl}/docs   (OpenAPI: ${apiUrl}/integration/openapi.json)
  Temporal UI   ${temporalUi ?? '(your Temporal server’s UI)'}
  Data          ${dataDir}
  Webhooks      to public addresses${webhookTargets ? ` and ${webhookTargets} (WEBHOOK_ALLOWED_PRIVATE_TARGETS)` : ' only (WEBHOOK_ALLOWED_PRIVATE_TARGETS lists private ones to allow)'}
${topology.map((line) => `  ${line}\n`).join('')}${admin.generated ? `\n  Admin token (generated, saved in ${admin.file}; shown once):\n    ${admin.token}\n` : ''}${
    demo.apiKey
      ? `
Demo organisation, agent version and API key (the key is shown only this once):
  export PYLON_URL=${apiUrl}
  export ORG_ID=${demo.orgId}
  export AGENT_VERSION_ID=${demo.agentVersionId}
  export PYLON_API_KEY=${demo.apiKey}
`
      : `
Demo organisation ${demo.orgId}, agent version ${demo.agentVersionId}.
(Its API key was shown on first start; make another with: npm run pylon -- key create --org ${demo.orgId} --scopes '*')
`
  }
Stop with Ctrl-C.`;
}
