import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { describe, it } from 'node:test';
import { takenPortsMessage } from './ports';

function listen(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe('takenPortsMessage', () => {
  it('is null when every port is free', async () => {
    const server = await listen();
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    assert.equal(await takenPortsMessage([{ port, host: '127.0.0.1', what: 'the API', setting: 'PORT' }]), null);
  });

  it('names each taken port with the setting that moves it, and only those', async () => {
    const [api, ui] = [await listen(), await listen()];
    try {
      const apiPort = (api.address() as { port: number }).port;
      const uiPort = (ui.address() as { port: number }).port;
      const free = await listen();
      const freePort = (free.address() as { port: number }).port;
      await new Promise((resolve) => free.close(resolve));
      const message = await takenPortsMessage([
        { port: apiPort, host: '127.0.0.1', what: 'the API', setting: 'PORT' },
        { port: freePort, host: '127.0.0.1', what: 'the Temporal dev server', setting: 'TEMPORAL_PORT' },
        { port: uiPort, host: '127.0.0.1', what: 'the Temporal UI', setting: 'TEMPORAL_UI_PORT' },
      ]);
      assert.equal(
        message,
        'Pylon cannot start: ports it needs are already in use (another Pylon still running?).\n' +
          `  127.0.0.1:${apiPort} (the API): choose another with PORT=…\n` +
          `  127.0.0.1:${uiPort} (the Temporal UI): choose another with TEMPORAL_UI_PORT=…`,
      );
    } finally {
      await Promise.all([api, ui].map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
