import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from './config-error';
import { loadConfig } from './pylon-config';

describe('configuration', () => {
  it('has defaults for the embedded mode', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.temporalAddress, 'localhost:7233');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.adminToken, undefined);
    assert.ok(config.dataDir.endsWith('.data'));
    assert.equal(config.readyMaxQueueBacklog, 0, 'a backlog is accepted work, not unreadiness');
    assert.deepEqual(config.webhookAllowedPrivateTargets, [], 'no private receiver unless listed');
    assert.equal(config.workerMetricsPort, 0, 'the worker serves no metrics unless asked');
    assert.deepEqual(config.modelPrices, [], 'no model is priced unless the operator prices it');
  });

  it('reads MODEL_PRICES per model id or provider', () => {
    const config = loadConfig({ MODEL_PRICES: '{"openai/*": {"input": 0.15, "output": 0.6}, "local/echo": {"input": 1, "output": 0}}' });
    assert.deepEqual(config.modelPrices, [
      { model: 'openai/*', inputPer1k: 0.15, outputPer1k: 0.6 },
      { model: 'local/echo', inputPer1k: 1, outputPer1k: 0 },
    ]);
  });

  it('reads MODEL_PROVIDERS: OpenAI-compatible endpoints, each with the key its variable holds (masked when the configuration is shown)', () => {
    const config = loadConfig({
      MODEL_PROVIDERS: JSON.stringify([
        { name: 'ollama', base_url: 'http://127.0.0.1:11434/v1' },
        { name: 'together', base_url: 'https://api.together.xyz/v1', api_key_env: 'TOGETHER_API_KEY', api: 'chat_completions' },
        { name: 'groq', base_url: 'https://api.groq.com/openai/v1', api_key_env: 'GROQ_API_KEY' },
        { name: 'edge', base_url: 'https://edge.example/v1', api: 'responses' },
      ]),
      TOGETHER_API_KEY: 'tg-secret',
    });
    assert.deepEqual(config.modelProviders, [
      { name: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: undefined, apiKey: undefined, api: 'chat_completions' },
      { name: 'together', baseUrl: 'https://api.together.xyz/v1', apiKeyEnv: 'TOGETHER_API_KEY', apiKey: 'tg-secret', api: 'chat_completions' },
      { name: 'groq', baseUrl: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY', apiKey: undefined, api: 'chat_completions' },
      { name: 'edge', baseUrl: 'https://edge.example/v1', apiKeyEnv: undefined, apiKey: undefined, api: 'responses' },
    ]);
    assert.ok(!JSON.stringify(config).includes('tg-secret'), 'no key in the configuration as it is logged');
  });

  for (const [value, pattern] of [
    ['{"name": "x"}', /MODEL_PROVIDERS must be a JSON array/],
    ['[{"name": "openai", "base_url": "http://x"}]', /"openai" is a built-in provider/],
    ['[{"name": "Big Server", "base_url": "http://x"}]', /"name" must be lower-case letters/],
    ['[{"name": "a", "base_url": "ftp://x"}]', /must use http: or https:/],
    ['[{"name": "a", "base_url": "http://x"}, {"name": "a", "base_url": "http://y"}]', /"a" is named twice/],
    ['[{"name": "a", "base_url": "http://x", "api_key_env": "not a var"}]', /"api_key_env" must name an environment variable/],
    ['[{"name": "a", "base_url": "http://x", "api": "assistants"}]', /"api" must be "chat_completions" or "responses"/],
    ['[{"name": "a", "base_url": "http://x", "key": "k"}]', /unknown fields: key/],
  ] as const) {
    it(`refuses MODEL_PROVIDERS=${value}`, () => assert.throws(() => loadConfig({ MODEL_PROVIDERS: value }), pattern));
  }

  for (const [name, value, pattern] of [
    ['PORT', 'eighty', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be between 0 and 65535/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must use postgres: or postgresql:/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL must be a URL/],
    ['TEMPORAL_ADDRESS', 'localhost', /TEMPORAL_ADDRESS must be host:port/],
    ['OPENAI_BASE_URL', 'ftp://x', /OPENAI_BASE_URL must use http: or https:/],
    ['ADMIN_TOKEN', 'short', /ADMIN_TOKEN must be at least 16 characters/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['TRUST_PROXY', 'maybe', /TRUST_PROXY must be true or false/],
    ['READY_MAX_QUEUE_BACKLOG', '-1', /READY_MAX_QUEUE_BACKLOG must be between 0 and/],
    ['WORKER_METRICS_PORT', '9464x', /WORKER_METRICS_PORT must be an integer/],
    ['MODEL_PRICES', '{"openai/gpt-4o": 3}', /MODEL_PRICES "openai\/gpt-4o" must be \{"input"/],
    ['MODEL_PRICES', '{"gpt-4o": {"input": 1, "output": 1}}', /MODEL_PRICES "gpt-4o" is not a provider\/model id/],
    ['MODEL_PRICES', '{"openai/*": {"input": -1, "output": 1}}', /each ≥ 0/],
    ['MODEL_PRICES', 'cheap', /MODEL_PRICES must be a JSON object/],
    ['RATE_LIMIT_PER_SECOND', '0', /RATE_LIMIT_PER_SECOND must be between 1 and/],
    ['RATE_LIMIT_BURST', '2.5', /RATE_LIMIT_BURST must be an integer/],
    ['WEBHOOK_MAX_ENDPOINTS', '-1', /WEBHOOK_MAX_ENDPOINTS must be between 1 and/],
    [
      'WEBHOOK_ALLOWED_PRIVATE_TARGETS',
      '10.0.0.0/8,intranet',
      /WEBHOOK_ALLOWED_PRIVATE_TARGETS must list IP addresses, CIDRs or "loopback".*"intranet"/,
    ],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', 'true', /WEBHOOK_ALLOW_PRIVATE_URLS is replaced by WEBHOOK_ALLOWED_PRIVATE_TARGETS/],
    ['WEBHOOK_TEST_EVENTS_PER_MINUTE', 'ten', /WEBHOOK_TEST_EVENTS_PER_MINUTE must be an integer/],
    ['WEBHOOK_MAX_INFLIGHT_PER_ENDPOINT', '0', /WEBHOOK_MAX_INFLIGHT_PER_ENDPOINT must be between 1 and/],
  ] as const) {
    it(`a malformed ${name} stops start-up with a message naming it`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.equal(error.setting, name);
          assert.match(error.message, pattern);
          return true;
        },
      );
    });
  }

  it('limits: 50/s with a burst of 100 and the organisation caps by default; a burst never below the rate', () => {
    const config = loadConfig({});
    assert.deepEqual(
      [
        config.rateLimitPerSecond,
        config.rateLimitBurst,
        config.webhookMaxEndpoints,
        config.webhookTestEventsPerMinute,
        config.webhookMaxInflightPerEndpoint,
      ],
      [50, 100, 20, 10, 100],
    );
    const fast = loadConfig({ RATE_LIMIT_PER_SECOND: '1000000' });
    assert.equal(fast.rateLimitBurst, 1_000_000, 'an unset burst follows a higher rate');
    assert.throws(
      () => loadConfig({ RATE_LIMIT_PER_SECOND: '10', RATE_LIMIT_BURST: '5' }),
      /RATE_LIMIT_BURST must be at least RATE_LIMIT_PER_SECOND \(10\)/,
    );
  });

  it('names a required setting that is missing', () => {
    assert.throws(() => loadConfig({}).requireDatabaseUrl(), /DATABASE_URL is required/);
    assert.throws(() => loadConfig({}).requireAdminToken(), /ADMIN_TOKEN is required/);
  });

  it('never serialises secrets', () => {
    const config = loadConfig({ ADMIN_TOKEN: 'a-very-secret-admin-token', OPENAI_API_KEY: 'sk-secret', DATABASE_URL: 'postgres://u:pw@h:5432/db' });
    const json = JSON.stringify(config);
    assert.doesNotMatch(json, /a-very-secret|sk-secret|:pw@/);
  });
});
