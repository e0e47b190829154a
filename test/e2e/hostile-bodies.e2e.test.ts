import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createKey, createOrg } from '../support/tenant';
import { pause } from '../support/wait';

/**
 * Every operation of the OpenAPI that takes a body, sent bodies an attacker or a careless client would:
 * deep nesting (at the top and in each field, nested ones included), objects of 120 000 keys, wide
 * arrays, text PostgreSQL cannot store, numbers a double cannot hold, and extra properties named like
 * Object.prototype's members. Each must be refused with a 4xx and the error body in under a second
 * (a bound on correctness, not a benchmark: before the body scan one of them held the server for
 * 30 s), and `/healthz`, polled all along, must answer promptly. A body past one of the body limits
 * (docs/api.md, "Body limits") is refused for that limit, named in `Error-Detail`, whatever else is wrong
 * with it; and a body that is valid but for one limit is refused for it, while the same body within the
 * limit is taken.
 */

type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: unknown; allOf?: Schema[] };
type Operation = { operationId: string; requestBody?: { content?: Record<string, { schema?: Schema }> }; security?: Array<Record<string, unknown>> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const BOUND_MS = 1_000;
const SOME_ID = '5a6b7c8d-0000-4000-8000-000000000001';

/** The body limits as docs/api.md states them, and the `Error-Detail` that names each. */
const MAX_DEPTH = 32;
const MAX_KEYS = 1_000;
const MAX_ITEMS = 10_000;
const TOO_DEEP = `the body nests deeper than ${MAX_DEPTH} levels`;
const TOO_MANY_KEYS = `an object in the body has more than ${MAX_KEYS} keys`;
const TOO_MANY_ITEMS = `an array in the body has more than ${MAX_ITEMS} items`;

function nestedArrays(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

function nestedObjects(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
}

function manyKeys(count: number): string {
  return `{${Array.from({ length: count }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
}

/** Hostile values to put in place of a field (or of the whole body), as JSON text, with the limit each breaks wherever it goes. */
const HOSTILE_VALUES: Array<[label: string, json: string, detail: string]> = [
  ['1 000 nested arrays', nestedArrays(1_000), TOO_DEEP],
  ['10 000 nested arrays', nestedArrays(10_000), TOO_DEEP],
  ['100 000 nested arrays', nestedArrays(100_000), TOO_DEEP],
  ['10 000 nested objects', nestedObjects(10_000), TOO_DEEP],
  ['an object of 120 000 keys', manyKeys(120_000), TOO_MANY_KEYS],
  ['an array of 200 000 items', `[${'0,'.repeat(199_999)}0]`, TOO_MANY_ITEMS],
];

/** Whole bodies that are hostile wherever they go: the body's own text (and the limit it breaks, if it is one of those). */
const HOSTILE_BODIES: Array<[label: string, json: string, detail?: string]> = [
  ...HOSTILE_VALUES,
  ['a NUL in a key', '{"a\\u0000":1}'],
  ['a lone surrogate', '{"a":"\\ud800"}'],
  ['an integer beyond 2^53', '{"a":9007199254740993}'],
  ['a number that underflows to 0', '{"a":1e-400}'],
  ['a number that overflows to Infinity', '{"a":1e400}'],
  ['__proto__', '{"__proto__":{"x":1}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"x":1}}}'],
];

/** Keys a body may never add to an object the schema closes, whatever they are named. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', '__defineGetter__', 'isPrototypeOf'];

function resolve(document: Document, schema: Schema | undefined): Schema | undefined {
  if (schema?.$ref) return resolve(document, document.components.schemas[schema.$ref.split('/').pop()!]);
  if (schema?.allOf?.length === 1) return resolve(document, schema.allOf[0]);
  return schema;
}

/** Each field path of a schema (into objects and array items, two levels down), with whether it is a closed object. */
function fieldPaths(
  document: Document,
  schema: Schema | undefined,
  prefix: string[] = [],
  depth = 0,
): Array<{ path: string[]; closedObject: boolean }> {
  const resolved = resolve(document, schema);
  if (!resolved || depth > 2) return [];
  const item = resolved.type === 'array' ? resolve(document, resolved.items) : resolved;
  const steps = resolved.type === 'array' ? ['0'] : [];
  const closed = item?.properties !== undefined && item.additionalProperties === false;
  const here = prefix.length > 0 || closed ? [{ path: [...prefix, ...steps], closedObject: closed }] : [];
  const below = Object.entries(item?.properties ?? {}).flatMap(([name, child]) =>
    fieldPaths(document, child, [...prefix, ...steps, name], depth + 1),
  );
  return [...here, ...below];
}

/** JSON text of an object with `valueJson` at `path` (array steps as one-item arrays). */
function bodyWith(path: string[], valueJson: string): string {
  let text = valueJson;
  for (let i = path.length - 1; i >= 0; i--) text = path[i] === '0' ? `[${text}]` : `{${JSON.stringify(path[i])}:${text}}`;
  return text;
}

describe('hostile bodies on every operation that takes one: 4xx in under a second, the server responsive', () => {
  let stack: Stack;
  let http: Http;
  let document: Document;
  let apiKey: string;
  const health: { polls: number; slowestMs: number; failures: number } = { polls: 0, slowestMs: 0, failures: 0 };
  let polling = true;
  let poller: Promise<void> | undefined;

  before(async () => {
    stack = await Stack.start({ worker: false });
    http = new Http(stack.url);
    const orgId = await createOrg(http);
    const issued = await http.post(`/admin/v1/orgs/${orgId}/api-keys`, { token: testInfra().adminToken, body: { name: 'hostile', scopes: ['*'] } });
    assert.equal(issued.status, 201, issued.text);
    apiKey = issued.body.api_key;
    const unlimited = { rate_limit_per_second: 1_000_000, rate_limit_burst: 1_000_000 };
    assert.equal((await http.patch(`/admin/v1/api-keys/${issued.body.key_id}`, { token: testInfra().adminToken, body: unlimited })).status, 200);
    document = (await http.get<Document>('/integration/openapi.json')).body;
    poller = (async () => {
      while (polling) {
        const started = performance.now();
        const response = await fetch(`${stack.url}/healthz`).catch(() => null);
        health.polls++;
        health.slowestMs = Math.max(health.slowestMs, performance.now() - started);
        if (response?.status !== 200) health.failures++;
        await response?.arrayBuffer();
        await pause(50); // sampled every 50 ms throughout
      }
    })();
  });
  after(async () => {
    polling = false;
    await poller;
    await stack?.stop();
  });

  it('refuses each with a 4xx and the error body, each in under a second, and /healthz answers throughout', async () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.requestBody?.content?.['application/json'])
        .map(([method, operation]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, SOME_ID), operation })),
    );
    assert.ok(operations.length >= 15, `only ${operations.length} operations take a JSON body`);
    let sent = 0;
    const problems: string[] = [];
    for (const { method, path, operation } of operations) {
      const token = path.startsWith('/admin/') ? testInfra().adminToken : apiKey;
      const schema = operation.requestBody!.content!['application/json']!.schema;
      const fields = fieldPaths(document, schema);
      const bodies: Array<[string, string, string?]> = [
        ...HOSTILE_BODIES.map(([label, json, detail]): [string, string, string?] => [`the body: ${label}`, json, detail]),
        ...fields.flatMap(({ path: field }) =>
          field.length === 0
            ? []
            : HOSTILE_VALUES.map(([label, json, detail]): [string, string, string] => [
                `${field.join('.')}: ${label}`,
                bodyWith(field, json),
                detail,
              ]),
        ),
        ...fields
          .filter((field) => field.closedObject)
          .flatMap(({ path: field }) =>
            PROTOTYPE_NAMES.map((name): [string, string] => [
              `${[...field, name].join('.')}: an extra property`,
              bodyWith(field, `{${JSON.stringify(name)}:1}`),
            ]),
          ),
      ];
      for (const [label, body, detail] of bodies) {
        const started = performance.now();
        const response = await http.request(method, path, { token, rawBody: body, headers: { 'content-type': 'application/json' } });
        const tookMs = performance.now() - started;
        sent++;
        const where = `${method} ${path} (${operation.operationId}) with ${label}`;
        if (response.status < 400 || response.status >= 500) problems.push(`${where}: ${response.status} ${response.text.slice(0, 200)}`);
        else if (typeof response.body?.error !== 'string' || Object.keys(response.body).length !== 1)
          problems.push(`${where}: body ${response.text.slice(0, 200)}`);
        else if (detail !== undefined && (response.status !== 400 || response.headers.get('error-detail') !== detail))
          problems.push(
            `${where}: ${response.status} with Error-Detail ${JSON.stringify(response.headers.get('error-detail'))}, not ${JSON.stringify(detail)}`,
          );
        if (tookMs >= BOUND_MS) problems.push(`${where}: took ${Math.round(tookMs)} ms`);
      }
    }
    console.log(
      `hostile bodies: ${sent} requests over ${operations.length} operations; /healthz polled ${health.polls} times, slowest ${Math.round(health.slowestMs)} ms`,
    );
    assert.deepEqual(problems, []);
    assert.equal(health.failures, 0);
    assert.ok(health.slowestMs < BOUND_MS, `/healthz took ${Math.round(health.slowestMs)} ms once`);
  });

  it('a body valid but for one limit is refused for that limit, named in Error-Detail; the same body within it is taken', async () => {
    const orgId = await createOrg(http);
    const key = await createKey(http, orgId, ['*']);
    const agent = await http.post('/api/v1/agents', { token: key, body: { org_id: orgId, name: 'limits' } });
    assert.equal(agent.status, 201, agent.text);
    /** A document whose metadata (level 2 of the body) is the given JSON: every required field there and valid. */
    const documentWith = (metadata: string) => ({
      path: '/api/v1/knowledge/documents',
      created: 202,
      json: `{"org_id":"${orgId}","title":"Limits","content":"A document within every limit but one.","metadata":${metadata}}`,
    });
    /** A version with one function tool whose one argument is one of `count` numbers: a JSON Schema enum of that many items. */
    const versionWithEnum = (count: number) => ({
      path: `/api/v1/agents/${agent.body.agent_id}/versions`,
      created: 201,
      json: JSON.stringify({
        model: 'local/extractive',
        instructions: 'Pick a number.',
        tools: [
          {
            type: 'function',
            name: 'pick',
            parameters: { type: 'object', properties: { n: { enum: Array.from({ length: count }, (_, i) => i) } }, required: ['n'] },
          },
        ],
      }),
    });
    const cases = [
      // The body is level 1 and its metadata level 2: metadata of 31 levels makes 32, of 32 makes 33.
      { limit: 'depth', within: documentWith(nestedObjects(MAX_DEPTH - 1)), beyond: documentWith(nestedObjects(MAX_DEPTH)), detail: TOO_DEEP },
      { limit: 'keys per object', within: documentWith(manyKeys(MAX_KEYS)), beyond: documentWith(manyKeys(MAX_KEYS + 1)), detail: TOO_MANY_KEYS },
      { limit: 'items per array', within: versionWithEnum(MAX_ITEMS), beyond: versionWithEnum(MAX_ITEMS + 1), detail: TOO_MANY_ITEMS },
    ];
    for (const { limit, within, beyond, detail } of cases) {
      const send = ({ path, json }: { path: string; json: string }) =>
        http.post(path, { token: key, rawBody: json, headers: { 'content-type': 'application/json' } });
      const taken = await send(within);
      assert.equal(taken.status, within.created, `${limit}, within: ${taken.text} ${taken.headers.get('error-detail')}`);
      const refused = await send(beyond);
      assert.equal(refused.status, 400, `${limit}, beyond: ${refused.text}`);
      assert.deepEqual(refused.body, { error: 'invalid_request' });
      assert.equal(refused.headers.get('error-detail'), detail, limit);
    }
  });

  it('keeps every key of metadata a client sent, prototype names included', async () => {
    const orgId = await createOrg(http);
    const key = await createKey(http, orgId, ['*']);
    const metadata = '{"constructor":"x","toString":1,"valueOf":2,"prototype":3,"n":{"constructor":{"a":1}},"l":[{"hasOwnProperty":true}]}';
    const created = await http.post('/api/v1/knowledge/documents', {
      token: key,
      rawBody: `{"org_id":"${orgId}","title":"t","content":"hello","metadata":${metadata}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(created.status, 202, created.text);
    const read = await http.get(`/api/v1/knowledge/documents/${created.body.doc_id}`, { token: key });
    assert.deepEqual(read.body.metadata, JSON.parse(metadata));
  });
});
