import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ServerSentEventStream } from './server-sent-events';

describe('ServerSentEventStream', () => {
  let server: Server;
  let url: string;
  const opened: ServerSentEventStream[] = [];
  let onRequest: (stream: ServerSentEventStream, response: ServerResponse) => void = () => undefined;

  before(async () => {
    server = createServer((_request, response) => {
      const stream = new ServerSentEventStream(response);
      opened.push(stream);
      onRequest(stream, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(async () => {
    for (const stream of opened) stream.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends its head at once when it has no frame yet', async () => {
    onRequest = (stream) => stream.open({}, 60);
    const started = Date.now();
    const response = await fetch(url);
    const headAfterMs = Date.now() - started;
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.ok(headAfterMs < 1_000, `the head came after ${headAfterMs} ms`);
    await response.body?.cancel();
  });

  it('sends the head with the frames of its first turn in one write, and the frames of each later turn in one more', async () => {
    const writes: string[] = [];
    onRequest = (stream, response) => {
      const write = response.write.bind(response) as (chunk: string) => boolean;
      response.write = ((chunk: string) => {
        writes.push(chunk);
        return write(chunk);
      }) as typeof response.write;
      response.flushHeaders = () => assert.fail('the head leaves with the first frames');
      stream.open({}, 60);
      void stream.send({ id: '1', event: 'queued', data: {} });
      void stream.send({ id: '2', event: 'running', data: {} });
      setTimeout(() => {
        void stream.send({ id: '3', event: 'output_delta', data: {} });
        void stream.send({ id: '4', event: 'output_delta', data: {} });
        setTimeout(() => stream.close(), 20);
      }, 20);
    };
    const frame = (id: string, event: string) => `id: ${id}\nevent: ${event}\ndata: {}\n\n`;
    const body = await (await fetch(url)).text();
    assert.deepEqual(writes, [frame('1', 'queued') + frame('2', 'running'), frame('3', 'output_delta') + frame('4', 'output_delta')]);
    assert.equal(body, writes.join(''));
  });
});
