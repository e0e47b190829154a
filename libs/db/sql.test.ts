import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentRun, WebhookDelivery } from './entities';
import { columnsWithPrefix, entityColumns, prefixedColumns } from './sql';

describe('joined rows by prefix', () => {
  it('names each column <prefix>.<property> and collects them back into the entity', () => {
    assert.equal(prefixedColumns('e', 'endpoint', { id: 'id', orgId: 'org_id' }), `e.id AS "endpoint.id", e.org_id AS "endpoint.orgId"`);
    const row = { 'event.id': 'ev1', 'event.data': { a: 1 }, 'endpoint.id': 'e1', 'endpoint.orgId': 'o1', 'endpoint.secret': null };
    assert.deepEqual(columnsWithPrefix(row, 'endpoint', {}), { id: 'e1', orgId: 'o1', secret: null });
    assert.deepEqual(columnsWithPrefix(row, 'event', {}), { id: 'ev1', data: { a: 1 } });
  });

  it('a LEFT JOIN that found nothing (its id null) gives null, not an empty entity', () => {
    assert.equal(columnsWithPrefix({ 'event.id': 'ev1', 'delivery.id': null, 'delivery.attemptCount': null }, 'delivery', {}), null);
  });

  it("an entity's columns come from its decorators, all of them or the properties asked for", () => {
    assert.deepEqual(entityColumns(WebhookDelivery, ['id', 'endpointId', 'attemptCount']), {
      id: 'id',
      endpointId: 'endpoint_id',
      attemptCount: 'attempt_count',
    });
    assert.equal(entityColumns(WebhookDelivery).deliveredAt, 'delivered_at');
  });

  it("an entity's columns include those of its base classes", () => {
    const columns = entityColumns(AgentRun);
    assert.deepEqual(
      [columns.id, columns.orgId, columns.requestHash, columns.updatedAt, columns.agentVersionId],
      ['id', 'org_id', 'request_hash', 'updated_at', 'agent_version_id'],
    );
  });
});
