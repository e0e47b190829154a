import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OrgLimits } from '@pylon/db';
import { effectiveOrgLimits } from './org-limits';

describe('organisation limits', () => {
  const defaults = { webhookEndpoints: 20, testEventsPerMinute: 10, inflightDeliveriesPerEndpoint: 100, agentRunsPerSecond: 10 };

  it('are the defaults when the organisation has no row', () => {
    const limits = effectiveOrgLimits('org', defaults, null);
    assert.deepEqual(limits.effective, defaults);
    assert.deepEqual(limits.overrides, { webhookEndpoints: null, testEventsPerMinute: null, inflightDeliveriesPerEndpoint: null, agentRunsPerSecond: null });
    assert.equal(limits.updatedAt, null);
  });

  it('take each override that is set, and the default where it is null', () => {
    const updatedAt = new Date();
    const row = Object.assign(new OrgLimits(), { orgId: 'org', webhookEndpoints: 2, testEventsPerMinute: null, inflightDeliveriesPerEndpoint: 7, agentRunsPerSecond: 3, updatedAt });
    const limits = effectiveOrgLimits('org', defaults, row);
    assert.deepEqual(limits.effective, { webhookEndpoints: 2, testEventsPerMinute: 10, inflightDeliveriesPerEndpoint: 7, agentRunsPerSecond: 3 });
    assert.deepEqual(limits.overrides, { webhookEndpoints: 2, testEventsPerMinute: null, inflightDeliveriesPerEndpoint: 7, agentRunsPerSecond: 3 });
    assert.equal(limits.updatedAt, updatedAt);
  });
});
