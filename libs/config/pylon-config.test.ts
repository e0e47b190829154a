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
    assert.equal(config.readyMaxQueueBacklog, 10_000);
    assert.equal(config.workerMetricsPort, 0, 'the worker serves no metrics unless asked');
  });

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
  ] as const) {
    it(`a malformed ${name} stops start-up with a message naming it`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.setting, name);
        assert.match(error.message, pattern);
        return true;
      });
    });
  }

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
