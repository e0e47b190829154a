import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeExtractiveAnswer } from './extractive-answer';

describe('extractive answers', () => {
  const hits = [
    {
      doc_id: 'doc-a',
      chunk_id: 'c1',
      title: 'Runs',
      score: 0.6,
      content: '# Runs\n\nA run goes queued, running, succeeded. A cancelled run ends failed with the error cancelled.',
    },
    { doc_id: 'doc-b', chunk_id: 'c2', title: 'Keys', score: 0.2, content: 'API keys start with pyl_. Revoked keys stop working.' },
  ];

  it('answers with the sentences sharing the most terms with the question, citing their documents', () => {
    const answer = composeExtractiveAnswer('What happens to a cancelled run?', hits)!;
    assert.match(answer, /A cancelled run ends failed with the error cancelled\. \[doc doc-a\]/);
    assert.match(answer, /Sources: Runs \(doc-a\)/);
    assert.doesNotMatch(answer, /# Runs/, 'headings are not answers');
  });

  it('is deterministic and has nothing to say without passages', () => {
    assert.equal(composeExtractiveAnswer('keys?', hits), composeExtractiveAnswer('keys?', hits));
    assert.equal(composeExtractiveAnswer('anything', []), null);
  });
});
