import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, waitForRun, type Tenant } from '../support/tenant';

describe('OpenAPI document', () => {
  let stack: Stack;
  let http: Http;
  let document: any;
  let tenant: Tenant;
  let ajv: Ajv;

  const assertMatches = (schemaName: string, value: unknown) => {
    const validate = ajv.getSchema(`openapi#/components/schemas/${schemaName}`);
    assert.ok(validate, `schema ${schemaName} exists`);
    assert.ok(validate(value), `${schemaName}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(value)}`);
  };

  before(async () => {
    stack = await Stack.start();
    http = new Http(stack.url);
    const response = await http.get('/integration/openapi.json');
    assert.equal(response.status, 200);
    document = response.body;
    tenant = await createTenant(http);
    ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
  });
  after(async () => stack?.stop());

  it('is a valid OpenAPI 3.0 document, version 1.0.0', async () => {
    await SwaggerParser.validate(structuredClone(document));
    assert.match(document.openapi, /^3\.0\./);
    assert.equal(document.info.version, '1.0.0');
  });

  it('names the seed operations and their error responses', () => {
    const create = document.paths['/api/v1/agent-runs'].post;
    const get = document.paths['/api/v1/agent-runs/{runId}'].get;
    assert.equal(create.operationId, 'createAgentRun');
    assert.equal(get.operationId, 'getAgentRun');
    assert.deepEqual(Object.keys(create.responses).sort(), ['200', '400', '401', '403', '409', '415', '429', '500']);
    assert.deepEqual(Object.keys(get.responses).sort(), ['200', '400', '401', '403', '404', '429', '500']);
    for (const status of ['400', '401', '403', '500']) {
      assert.equal(create.responses[status].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody');
    }
    assert.equal(get.parameters.find((p: any) => p.name === 'runId').schema.format, 'uuid');
  });

  it('documents the rate limit on every API-key operation, and only there', () => {
    let keyOperations = 0;
    for (const [path, operations] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const byKey = (operation.security ?? []).some((requirement: any) => 'apiKey' in requirement);
        const tooMany = operation.responses['429'];
        if (!byKey) {
          assert.equal(tooMany, undefined, `${method.toUpperCase()} ${path}`);
          continue;
        }
        keyOperations++;
        assert.equal(tooMany.content['application/json'].schema.$ref, '#/components/schemas/ErrorBody', `${method.toUpperCase()} ${path}`);
        assert.deepEqual(Object.keys(tooMany.headers).sort(), ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
        for (const [status, success] of Object.entries<any>(operation.responses).filter(([status]) => status.startsWith('2'))) {
          assert.ok(success.headers['RateLimit-Remaining'], `${method.toUpperCase()} ${path} ${status} headers`);
        }
      }
    }
    assert.ok(keyOperations > 20);
  });

  it('documents the limit operations with their 2xx schemas and errors', () => {
    const key = document.paths['/admin/v1/api-keys/{key_id}'].patch;
    const limits = document.paths['/admin/v1/orgs/{org_id}/limits'];
    assert.equal(key.operationId, 'updateApiKey');
    assert.equal(key.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/ApiKeyView');
    assert.deepEqual(Object.keys(key.responses).sort(), ['200', '400', '401', '404', '415', '500']);
    for (const [method, operationId, statuses] of [
      ['get', 'getOrgLimits', ['200', '400', '401', '404', '500']],
      ['patch', 'updateOrgLimits', ['200', '400', '401', '404', '415', '500']],
    ] as const) {
      assert.equal(limits[method].operationId, operationId);
      assert.equal(limits[method].responses['200'].content['application/json'].schema.$ref, '#/components/schemas/OrgLimitsView');
      assert.deepEqual(Object.keys(limits[method].responses).sort(), statuses);
    }
    const body = document.components.schemas.UpdateOrgLimitsRequest;
    assert.deepEqual(Object.keys(body.properties).sort(), ['inflight_deliveries_per_endpoint', 'test_events_per_minute', 'webhook_endpoints']);
    assert.equal(body.properties.webhook_endpoints.nullable, true);
    assert.equal(body.properties.webhook_endpoints.minimum, 1);
    assert.deepEqual(Object.keys(document.paths['/api/v1/webhook-endpoints'].post.responses).sort(), ['201', '400', '401', '403', '409', '415', '429', '500']);
    assert.ok(document.paths['/api/v1/webhook-endpoints/{endpoint_id}/test'].post.responses['409']);
  });

  it('declares bearer authentication and closes every request body to unknown properties', () => {
    assert.equal(document.components.securitySchemes.apiKey.scheme, 'bearer');
    for (const [path, operations] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
        if (!ref) continue;
        const schema = document.components.schemas[ref.split('/').pop()!];
        assert.equal(schema.additionalProperties, false, `${method.toUpperCase()} ${path} body`);
      }
    }
    const body = document.components.schemas.CreateAgentRunRequest;
    assert.deepEqual([...body.required].sort(), ['agent_version_id', 'input', 'org_id']);
    assert.deepEqual(Object.keys(body.properties).sort(), ['agent_version_id', 'input', 'org_id']);
  });

  it('live responses match their schemas', async () => {
    const created = await http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'schema' } });
    assertMatches('AgentRunCreated', created.body);
    const queued = await http.get(`/api/v1/agent-runs/${created.body.run_id}`, { token: tenant.key });
    assertMatches('AgentRunView', queued.body);
    const { run } = await waitForRun(http, tenant.key, created.body.run_id);
    assertMatches('AgentRunView', run);
    assertMatches('AgentRunList', (await http.get('/api/v1/agent-runs', { token: tenant.key })).body);
    for (const response of [
      await http.get(`/api/v1/agent-runs/${created.body.run_id}`),
      await http.post('/api/v1/agent-runs', { token: tenant.key, body: {} }),
      await http.get('/api/v1/agent-runs/00000000-0000-4000-8000-000000000000', { token: tenant.key }),
    ]) {
      assertMatches('ErrorBody', response.body);
    }
  });

  it('live limit responses match their schemas', async () => {
    const admin = { token: testInfra().adminToken };
    const limits = await http.get(`/admin/v1/orgs/${tenant.orgId}/limits`, admin);
    assertMatches('OrgLimitsView', limits.body);
    const updated = await http.patch(`/admin/v1/orgs/${tenant.orgId}/limits`, { ...admin, body: { webhook_endpoints: 30, test_events_per_minute: null } });
    assertMatches('OrgLimitsView', updated.body);
    const keys = await http.get(`/admin/v1/orgs/${tenant.orgId}/api-keys`, admin);
    const key = await http.patch(`/admin/v1/api-keys/${keys.body.data[0].key_id}`, { ...admin, body: { rate_limit_per_second: 100000, rate_limit_burst: null } });
    assertMatches('ApiKeyView', key.body);
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await fetch(`${stack.url}/docs`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /swagger/i);
  });
});
