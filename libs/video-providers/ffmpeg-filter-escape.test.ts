import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterValue } from './ffmpeg-filter-escape';

describe('filterValue', () => {
  it('leaves plain paths alone', () => {
    assert.equal(filterValue('/srv/media/jobs/abc-1.prompt.txt'), '/srv/media/jobs/abc-1.prompt.txt');
  });

  it('escapes for the option level, then the filtergraph level', () => {
    assert.equal(filterValue('a:b'), 'a\\\\:b');
    assert.equal(filterValue("it's"), "it\\\\\\'s");
    assert.equal(filterValue('a\\b'), 'a\\\\\\\\b');
    assert.equal(filterValue('[x],y;z'), '\\[x\\]\\,y\\;z');
  });
});
