import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalTimeZone, cronError } from './schedule-spec';

describe('schedule spec', () => {
  it('accepts five-field cron expressions and macros', () => {
    for (const cron of ['* * * * *', '*/5 * * * *', '0 9 * * MON-FRI', '0,30 8-18/2 1 JAN,jul ?', '@daily', '@HOURLY', '15 3 * * 0']) {
      assert.equal(cronError(cron), null, cron);
    }
  });

  it('names what is wrong with a bad cron expression', () => {
    assert.match(cronError('* * * *')!, /5 fields/);
    assert.match(cronError('61 * * * *')!, /minute "61"/);
    assert.match(cronError('* 24 * * *')!, /hour "24"/);
    assert.match(cronError('*/0 * * * *')!, /minute step "0"/);
    assert.match(cronError('* * * FOO *')!, /month "FOO"/);
    assert.match(cronError('* * * * 5-2')!, /day of week range "5-2"/);
    assert.match(cronError('not a cron')!, /5 fields/);
  });

  it('knows IANA time zones, and only those', () => {
    assert.equal(canonicalTimeZone('UTC'), 'UTC');
    assert.equal(canonicalTimeZone('Europe/Paris'), 'Europe/Paris');
    assert.equal(canonicalTimeZone('america/new_york'), 'America/New_York');
    assert.equal(canonicalTimeZone('Mars/Olympus_Mons'), null);
    assert.equal(canonicalTimeZone('+01:00'), null);
    assert.equal(canonicalTimeZone(''), null);
  });
});
