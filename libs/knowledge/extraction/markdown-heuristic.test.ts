import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { looksLikeMarkdown } from './markdown-heuristic';

describe('looksLikeMarkdown', () => {
  it('takes a table with its delimiter row, or a list with a titled link, for Markdown', () => {
    assert.equal(looksLikeMarkdown('| a | b |\n| --- | :-: |\n| 1 | 2 |\n'), true);
    assert.equal(looksLikeMarkdown('1. see [the guide](https://example.org "Guide")\n'), true);
  });

  it('does not take a list without links, a lone link, or a rule under a list item for Markdown', () => {
    assert.equal(looksLikeMarkdown('Shopping:\n- milk\n- bread\n'), false);
    assert.equal(looksLikeMarkdown('Read [this](https://example.org) today.\n'), false);
    assert.equal(looksLikeMarkdown('- item\n---\n'), false);
  });

  it('answers at once on a line of brackets that would make a naive link pattern quadratic', () => {
    const started = process.hrtime.bigint();
    assert.equal(looksLikeMarkdown(`- item\n${'[a]('.repeat(8_000)}${'['.repeat(64 * 1024)}`), false);
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(milliseconds < 1000, `${milliseconds} ms`);
  });
});
