import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OrgLimits } from '@pylon/db';
import { effectiveOrgLimits } from './org-limits';

describe('organisation limits', () => {
  const defaults = {
    webhookEndpoints: 20,
    testEventsPerMinute: 10,
    inflightDeliveriesPerEndpoint: 100,
    dispatchWeight: 1,
    queuedRuns: 10_000,
    queuedDocuments: 1_000,
  };
  const none = {
    webhookEndpoints: null,
    testEventsPerMinute: null,
    inflightDeliveriesPerEndpoint: null,
    dispatchWeight: null,
    queuedRuns: null,
    queuedDocuments: null,
  };

  it('are the defaults when the organisation has no row', () => {
    const limits = effectiveOrgLimits('org', defaults, null);
    assert.deepEqual(limits.effective, defaults);
    assert.deepEqual(limits.overrides, none);
    assert.equal(limits.updatedAt, null);
  });

  it('take each override that is set, and the default where it is null', () => {
    const updatedAt = new Date();
    const row = Object.assign(new OrgLimits(), {
      ...none,
      orgId: 'org',
      webhookEndpoints: 2,
      inflightDeliveriesPerEndpoint: 7,
      dispatchWeight: 2.5,
      queuedRuns: 50,
      updatedAt,
    });
    const limits = effectiveOrgLimits('org', defaults, row);
    assert.deepEqual(limits.effective, { ...defaults, webhookEndpoints: 2, inflightDeliveriesPerEndpoint: 7, dispatchWeight: 2.5, queuedRuns: 50 });
    assert.deepEqual(limits.overrides, { ...none, webhookEndpoints: 2, inflightDeliveriesPerEndpoint: 7, dispatchWeight: 2.5, queuedRuns: 50 });
    assert.equal(limits.updatedAt, updatedAt);
  });
});
