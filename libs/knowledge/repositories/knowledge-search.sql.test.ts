import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SearchMode } from '@pylon/contracts';
import { knowledgeSearchStatement, type ChunkQuery, type SearchPlan } from './knowledge-search.sql';

const EXACT: SearchPlan = { exact: true, efSearch: 0, iterativeScan: false };
const INDEXED: SearchPlan = { exact: false, efSearch: 100, iterativeScan: true };
const ORG = '00000000-0000-4000-8000-000000000001';

function query(overrides: Partial<ChunkQuery> = {}): ChunkQuery {
  return { mode: 'hybrid', embedding: [0.1, 0.2, 0.3], text: 'retry policy', limit: 6, legDepth: 50, plan: EXACT, ...overrides };
}

describe('the knowledge search statement', () => {
  it('depends only on the query shape: different values give the same text, the values go to the parameters', () => {
    const hostile = `'); DROP TABLE knowledge_chunks; --`;
    const first = knowledgeSearchStatement(ORG, query({ filter: { type: 'eq', attribute: { kind: 'metadata', key: 'team' }, value: 'a' } }));
    const second = knowledgeSearchStatement(
      '00000000-0000-4000-8000-000000000002',
      query({
        text: hostile,
        embedding: [0.9, 0.8, 0.7],
        limit: 3,
        legDepth: 60,
        filter: { type: 'eq', attribute: { kind: 'metadata', key: hostile }, value: hostile },
      }),
    );
    assert.equal(second.sql, first.sql);
    assert.ok(!second.sql.includes('DROP TABLE'));
    assert.ok(second.params.includes(hostile));
    assert.equal(second.params[0], '00000000-0000-4000-8000-000000000002');
  });

  it('each mode has only its legs, and only a vector leg without a filter uses the HNSW index', () => {
    const legs = (mode: SearchMode) => {
      const { sql } = knowledgeSearchStatement(ORG, query({ mode, plan: INDEXED }));
      return [sql.includes('vector_leg AS'), sql.includes('keyword_leg AS')];
    };
    assert.deepEqual(legs('vector'), [true, false]);
    assert.deepEqual(legs('keyword'), [false, true]);
    assert.deepEqual(legs('hybrid'), [true, true]);
    assert.deepEqual(knowledgeSearchStatement(ORG, query({ plan: INDEXED, legDepth: 50 })).index, { efSearch: 100, iterativeScan: true });
    assert.deepEqual(knowledgeSearchStatement(ORG, query({ plan: INDEXED, legDepth: 400 })).index?.efSearch, 400);
    assert.equal(knowledgeSearchStatement(ORG, query({ plan: INDEXED, legDepth: 5000 })).index?.efSearch, 1000);
    assert.equal(knowledgeSearchStatement(ORG, query({ plan: EXACT })).index, undefined);
    assert.equal(knowledgeSearchStatement(ORG, query({ mode: 'keyword', plan: INDEXED })).index, undefined);
    const filtered = query({ plan: INDEXED, filter: { type: 'eq', attribute: { kind: 'title' }, value: 'x' } });
    assert.equal(knowledgeSearchStatement(ORG, filtered).index, undefined);
  });

  it('a vector search needs the embedding; a keyword search does not', () => {
    assert.throws(() => knowledgeSearchStatement(ORG, query({ mode: 'vector', embedding: undefined })), /needs the query embedding/);
    assert.doesNotThrow(() => knowledgeSearchStatement(ORG, query({ mode: 'keyword', embedding: undefined })));
  });
});
