import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSearch, supportsIterativeScan } from './search-planner';

describe('search planner', () => {
  const base = { k: 6, exactMaxChunks: 20_000, ownIndexReady: true, iterativeScanAvailable: true };

  it('scores small organisations exactly', () => {
    assert.deepEqual(planSearch({ ...base, orgChunks: 100 }), { exact: true, efSearch: 0, iterativeScan: false });
    assert.equal(planSearch({ ...base, orgChunks: 20_000 }).exact, true);
  });

  it('scores a large organisation exactly until its own index is ready (a search during the build is exact, not short)', () => {
    assert.deepEqual(planSearch({ ...base, orgChunks: 50_000, ownIndexReady: false }), { exact: true, efSearch: 0, iterativeScan: false });
  });

  it('gives a large organisation with its own index enough HNSW candidates for k', () => {
    assert.deepEqual(planSearch({ ...base, orgChunks: 50_000 }), { exact: false, efSearch: 100, iterativeScan: true });
    assert.equal(planSearch({ ...base, orgChunks: 50_000, k: 50 }).efSearch, 400);
    assert.equal(planSearch({ ...base, orgChunks: 50_000, k: 500 }).efSearch, 1000);
  });

  it('uses iterative scans only where pgvector has them', () => {
    assert.equal(planSearch({ ...base, orgChunks: 50_000, iterativeScanAvailable: false }).iterativeScan, false);
    assert.equal(supportsIterativeScan('0.8.0'), true);
    assert.equal(supportsIterativeScan('0.8.7'), true);
    assert.equal(supportsIterativeScan('0.6.2'), false);
    assert.equal(supportsIterativeScan('1.0.0'), true);
    assert.equal(supportsIterativeScan(undefined), false);
  });
});
