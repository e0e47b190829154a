import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSearch, supportsIterativeScan } from './search-planner';

describe('search planner', () => {
  const base = { totalChunks: 100_000, k: 6, exactMaxChunks: 20_000, iterativeScanAvailable: true };

  it('scores small organisations exactly', () => {
    assert.deepEqual(planSearch({ ...base, orgChunks: 100 }), { exact: true, efSearch: 0, iterativeScan: false });
    assert.equal(planSearch({ ...base, orgChunks: 20_000 }).exact, true);
  });

  it('gives a large organisation enough HNSW candidates for its share of the table', () => {
    const half = planSearch({ ...base, orgChunks: 50_000 });
    assert.deepEqual(half, { exact: false, efSearch: 100, iterativeScan: true });
    const quarter = planSearch({ ...base, orgChunks: 25_000, k: 20 });
    assert.equal(quarter.efSearch, 320);
    assert.equal(planSearch({ ...base, orgChunks: 21_000, totalChunks: 10_000_000 }).efSearch, 1000);
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
