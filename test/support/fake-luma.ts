import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Dream Machine API on loopback (the network edge the real provider would cross). A prompt with
 * "REJECT" is refused with a 400, one with "FAIL" ends `failed`; others complete after two polls.
 */
export class FakeLuma {
  readonly created: any[] = [];
  private readonly polls = new Map<string, number>();
  private readonly prompts = new Map<string, string>();
  private server!: Server;
  baseUrl!: string;

  static async start(): Promise<FakeLuma> {
    const fake = new FakeLuma();
    fake.server = createServer(async (request, response) => {
      let raw = '';
      for await (const chunk of request) raw += chunk;
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== 'Bearer luma-test-key') return send(401, { detail: 'Invalid API key' });
      if (request.method === 'POST' && request.url === '/dream-machine/v1/generations') {
        const body = JSON.parse(raw);
        fake.created.push(body);
        if (String(body.prompt).includes('REJECT')) return send(400, { detail: 'prompt rejected by moderation' });
        const id = randomUUID();
        fake.prompts.set(id, body.prompt);
        return send(201, { id, state: 'queued', failure_reason: null, created_at: new Date().toISOString(), assets: null, request: body });
      }
      const match = /^\/dream-machine\/v1\/generations\/([0-9a-f-]{36})$/.exec(request.url ?? '');
      if (request.method === 'GET' && match) {
        const id = match[1]!;
        const prompt = fake.prompts.get(id);
        if (prompt === undefined) return send(404, { detail: 'Not found' });
        const polls = (fake.polls.get(id) ?? 0) + 1;
        fake.polls.set(id, polls);
        const base = { id, created_at: new Date().toISOString(), request: { prompt } };
        if (polls < 2) return send(200, { ...base, state: 'dreaming', failure_reason: null, assets: null });
        if (prompt.includes('FAIL')) return send(200, { ...base, state: 'failed', failure_reason: 'the model could not render this prompt', assets: null });
        return send(200, {
          ...base,
          state: 'completed',
          failure_reason: null,
          assets: { video: `https://cdn.example.test/${id}.mp4`, image: `https://cdn.example.test/${id}.jpg` },
        });
      }
      send(404, { detail: 'Not found' });
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/dream-machine/v1`;
    return fake;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
