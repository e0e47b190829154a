import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DECORATORS } from '@nestjs/swagger';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { AppModule } from '../../apps/api/app.module';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, waitForRun, type Tenant } from '../support/tenant';

interface HandlerRoute {
  /** `METHOD /path/{param}`, as the document names the operation. */
  operation: string;
  /** The status the handler answers on success: its `@HttpCode`, or Nest's default (201 for POST, 200 otherwise). */
  status: number;
}

/** Every route handler of the API's controllers that the document publishes, read from Nest's own metadata. */
function documentedHandlerRoutes(): HandlerRoute[] {
  const modules = new Set<unknown>();
  const controllers = new Set<Type>();
  const visit = (entry: any): void => {
    const module = entry?.module ?? entry;
    if (!module || modules.has(module)) return;
    modules.add(module);
    for (const controller of [...(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []), ...(entry.controllers ?? [])])
      controllers.add(controller);
    for (const imported of [...(Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) ?? []), ...(entry.imports ?? [])]) visit(imported);
  };
  visit(AppModule);
  const routes: HandlerRoute[] = [];
  for (const controller of controllers) {
    if (Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)?.[0]) continue;
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string;
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = controller.prototype[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined || name === 'constructor') continue;
      const path = `/${[prefix, Reflect.getMetadata(PATH_METADATA, handler) as string].join('/')}`
        .replace(/\/+/g, '/')
        .replace(/\/$/, '')
        .replace(/:([A-Za-z_]+)/g, '{$1}');
      const status = Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? (method === RequestMethod.POST ? 201 : 200);
      routes.push({ operation: `${RequestMethod[method]} ${path}`, status });
    }
  }
  return routes;
}

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
    // The spec's statuses, plus what any request can meet before its operation (408, 414, 431, 503; 413 and 415 with a body) and the rate limit (429).
    // 402: a run on a priced model with an empty balance (the ledger pays for model turns).
    assert.deepEqual(Object.keys(create.responses).sort(), [
      '200',
      '400',
      '401',
      '402',
      '403',
      '408',
      '409',
      '413',
      '414',
      '415',
      '429',
      '431',
      '500',
      '503',
    ]);
    assert.deepEqual(Object.keys(get.responses).sort(), ['200', '400', '401', '403', '404', '408', '414', '429', '431', '500', '503']);
    for (const status of ['400', '401', '403', '500']) {
      assert.equal(create.responses[status].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody');
    }
    assert.equal(get.parameters.find((p: any) => p.name === 'runId').schema.format, 'uuid');
  });

  it('links what a create returns to the operations on it (OpenAPI links), so clients and fuzzers can follow new ids', () => {
    const created = document.paths['/api/v1/agent-runs'].post.responses['200'].links;
    assert.deepEqual(created.getAgentRun, { operationId: 'getAgentRun', parameters: { runId: '$response.body#/run_id' } });
    assert.ok(created.cancelAgentRun && created.listAgentRunEvents);
    const test = document.paths['/api/v1/webhook-endpoints/{endpoint_id}/test'].post.responses['202'].links;
    assert.deepEqual(test.getWebhookDelivery.parameters, { delivery_id: '$response.body#/delivery_id', endpoint_id: '$response.body#/endpoint_id' });
  });

  it("states the rules the server enforces beyond types: storable text, cursors, non-blank prompts, this deployment's limits", () => {
    const schemas = document.components.schemas;
    const storable = '^[^\\u0000\\uD800-\\uDFFF]*$';
    assert.equal(schemas.CreateAgentRunRequest.properties.input.pattern, storable);
    assert.equal(schemas.EqualityFilter.properties.value.oneOf[0].pattern, storable);
    assert.equal(schemas.EqualityFilter.additionalProperties, false);
    assert.match(schemas.CreateGenerationRequest.properties.user_prompt.pattern, /^\^/);
    assert.ok(!new RegExp(schemas.CreateGenerationRequest.properties.user_prompt.pattern, 'u').test(' \t\u00a0'), 'a blank prompt does not match');
    assert.ok(new RegExp(schemas.CreateGenerationRequest.properties.user_prompt.pattern, 'u').test(' a lighthouse 🌅 '));
    const cursor = document.paths['/api/v1/agent-runs'].get.parameters.find((p: any) => p.name === 'cursor').schema.pattern;
    assert.ok(new RegExp(cursor).test('1764197549553_6e6e8d3d-39e6-49c6-9ac4-b7fb5e9df8e5') && !new RegExp(cursor).test('garbage'));
    assert.equal(schemas.CreateAgentVersionRequest.properties.run_timeout_seconds.maximum, 3_600, 'MAX_RUN_TIMEOUT_SECONDS of this deployment');
  });

  it('documents one success status per operation, with a schema for its body, and every error with the error body', () => {
    const errorBody = { $ref: '#/components/schemas/ErrorBody' };
    for (const [path, operations] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
        assert.equal(successes.length, 1, `${name} documents one 2xx response: ${successes.join(', ') || 'none'}`);
        const success = operation.responses[successes[0]!];
        if (successes[0] === '204') {
          assert.equal(success.content, undefined, `${name} 204 has no body`);
        } else {
          // JSON, except a download, whose media types each have a binary schema.
          for (const [mediaType, { schema }] of Object.entries<any>(success.content ?? { none: {} })) {
            assert.ok(schema?.$ref || schema?.type, `${name} ${successes[0]} ${mediaType} has a response schema`);
          }
        }
        for (const [status, response] of Object.entries<any>(operation.responses).filter(([status]) => /^[45]/.test(status))) {
          assert.deepEqual(response.content?.['application/json']?.schema, errorBody, `${name} ${status}`);
        }
      }
    }
  });

  it("documents the success status each handler really answers (its @HttpCode, or Nest's default), for every handler", () => {
    const routes = documentedHandlerRoutes();
    const operations = Object.entries<any>(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(routes.map((route) => route.operation).sort(), operations.sort());
    for (const { operation, status } of routes) {
      const [method, path] = operation.split(' ') as [string, string];
      const documented = Object.keys(document.paths[path][method.toLowerCase()].responses).filter((code) => code.startsWith('2'));
      assert.deepEqual(documented, [String(status)], operation);
    }
    const seed = Object.fromEntries(routes.map((route) => [route.operation, route.status]));
    assert.equal(seed['POST /api/v1/agent-runs'], 200, 'spec 4.1');
    assert.equal(seed['GET /api/v1/agent-runs/{runId}'], 200, 'spec 4.2');
    assert.equal(seed['POST /api/v1/knowledge/search'], 200, 'spec 4.3');
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
    const transport = ['408', '414', '431', '503'];
    const withBody = [...transport, '413', '415'];
    const sorted = (statuses: string[]) => [...statuses].sort();
    assert.deepEqual(Object.keys(key.responses).sort(), sorted(['200', '400', '401', '404', '500', ...withBody]));
    for (const [method, operationId, statuses] of [
      ['get', 'getOrgLimits', sorted(['200', '400', '401', '404', '500', ...transport])],
      ['patch', 'updateOrgLimits', sorted(['200', '400', '401', '404', '500', ...withBody])],
    ] as const) {
      assert.equal(limits[method].operationId, operationId);
      assert.equal(limits[method].responses['200'].content['application/json'].schema.$ref, '#/components/schemas/OrgLimitsView');
      assert.deepEqual(Object.keys(limits[method].responses).sort(), statuses);
    }
    const body = document.components.schemas.UpdateOrgLimitsRequest;
    assert.deepEqual(Object.keys(body.properties).sort(), [
      'dispatch_weight',
      'inflight_deliveries_per_endpoint',
      'queued_documents',
      'queued_runs',
      'test_events_per_minute',
      'webhook_endpoints',
    ]);
    assert.equal(body.properties.webhook_endpoints.nullable, true);
    assert.equal(body.properties.webhook_endpoints.minimum, 1);
    assert.deepEqual(
      Object.keys(document.paths['/api/v1/webhook-endpoints'].post.responses).sort(),
      sorted(['201', '400', '401', '403', '409', '429', '500', ...withBody]),
    );
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
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'schema' },
    });
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
    const updated = await http.patch(`/admin/v1/orgs/${tenant.orgId}/limits`, {
      ...admin,
      body: { webhook_endpoints: 30, test_events_per_minute: null },
    });
    assertMatches('OrgLimitsView', updated.body);
    const keys = await http.get(`/admin/v1/orgs/${tenant.orgId}/api-keys`, admin);
    const key = await http.patch(`/admin/v1/api-keys/${keys.body.data[0].key_id}`, {
      ...admin,
      body: { rate_limit_per_second: 100000, rate_limit_burst: null },
    });
    assertMatches('ApiKeyView', key.body);
  });

  it('live management responses (organisations, keys, agents, versions) match their schemas', async () => {
    const admin = { token: testInfra().adminToken };
    const org = await http.post('/admin/v1/orgs', { ...admin, body: { name: 'Schema org' } });
    assertMatches('OrgView', org.body);
    assertMatches('OrgList', (await http.get('/admin/v1/orgs?limit=2', admin)).body);
    const issued = await http.post(`/admin/v1/orgs/${org.body.org_id}/api-keys`, { ...admin, body: { name: 'k', scopes: ['*'] } });
    assertMatches('IssuedApiKeyView', issued.body);
    assertMatches('ApiKeyList', (await http.get(`/admin/v1/orgs/${org.body.org_id}/api-keys`, admin)).body);
    const rolled = await http.post(`/admin/v1/api-keys/${issued.body.key_id}/roll`, { ...admin, body: { grace_seconds: 60 } });
    assertMatches('IssuedApiKeyView', rolled.body);
    const key = { token: rolled.body.api_key as string };
    const agent = await http.post('/api/v1/agents', { ...key, body: { org_id: org.body.org_id, name: 'schema agent' } });
    assertMatches('AgentView', agent.body);
    assertMatches('AgentView', (await http.get(`/api/v1/agents/${agent.body.agent_id}`, key)).body);
    assertMatches('AgentList', (await http.get('/api/v1/agents', key)).body);
    const version = await http.post(`/api/v1/agents/${agent.body.agent_id}/versions`, {
      ...key,
      body: { model: 'local/echo', instructions: 'x', temperature: 0.5, tools: [{ type: 'knowledge_search', match_count: 3 }] },
    });
    assertMatches('AgentVersionView', version.body);
    assertMatches('AgentVersionView', (await http.get(`/api/v1/agent-versions/${version.body.agent_version_id}`, key)).body);
    assertMatches('AgentVersionList', (await http.get(`/api/v1/agents/${agent.body.agent_id}/versions`, key)).body);
    assertMatches('ApiKeyView', (await http.delete(`/admin/v1/api-keys/${issued.body.key_id}`, admin)).body);
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await fetch(`${stack.url}/docs`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /swagger/i);
  });
});
