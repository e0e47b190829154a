import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import type { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import type { KnowledgeVectorIndexRepository, VectorIndexRecord } from './repositories/knowledge-vector-index.repository';
import type { StartRequest, WorkflowStarter } from '@pylon/temporal';
import { FAILED_BUILD_RETRY_MS, KnowledgeVectorIndexService } from './vector-index.service';

const ORG = '6f1c2a4e-0b7d-4c1e-9a43-2f5e8d7c6b10';

function service(record: VectorIndexRecord | null) {
  const started: StartRequest[] = [];
  const indexes = { find: async () => record } as unknown as KnowledgeVectorIndexRepository;
  const workflows = { start: async (request: StartRequest) => void started.push(request) } as unknown as WorkflowStarter;
  const vectorIndexes = new KnowledgeVectorIndexService(
    indexes,
    {} as KnowledgeDocumentRepository,
    workflows,
    loadConfig({ KB_EXACT_SEARCH_MAX_CHUNKS: '100' }),
  );
  return { vectorIndexes, started };
}

const record = (status: VectorIndexRecord['status'], updatedAt: Date): VectorIndexRecord => ({
  orgId: ORG,
  indexName: 'knowledge_chunks_vec_x',
  status,
  chunksAtStart: 150,
  buildMs: null,
  error: status === 'failed' ? 'out of memory' : null,
  updatedAt,
});

describe('KnowledgeVectorIndexService.requestIfLarge', () => {
  it('starts the build of an organisation past the threshold that has no index, as a rerunnable workflow per organisation', async () => {
    const { vectorIndexes, started } = service(null);
    await vectorIndexes.requestIfLarge(ORG, 100);
    assert.equal(started.length, 0, 'not past the threshold');
    await vectorIndexes.requestIfLarge(ORG, 101);
    assert.equal(started.length, 1);
    assert.equal(started[0]!.workflowId, `kb-vector-index:${ORG}`);
    assert.equal(started[0]!.rerunWhenClosed, true);
    assert.deepEqual(started[0]!.args, [{ orgId: ORG }]);
  });

  it('leaves an index that is building or ready alone', async () => {
    for (const status of ['building', 'ready'] as const) {
      const { vectorIndexes, started } = service(record(status, new Date(0)));
      await vectorIndexes.requestIfLarge(ORG, 5_000);
      assert.equal(started.length, 0, status);
    }
  });

  it('tries a failed build again once FAILED_BUILD_RETRY_MS have passed, not before', async () => {
    const failedAt = new Date('2026-11-23T10:00:00Z');
    const { vectorIndexes, started } = service(record('failed', failedAt));
    await vectorIndexes.requestIfLarge(ORG, 5_000, failedAt.getTime() + FAILED_BUILD_RETRY_MS - 1);
    assert.equal(started.length, 0);
    await vectorIndexes.requestIfLarge(ORG, 5_000, failedAt.getTime() + FAILED_BUILD_RETRY_MS);
    assert.equal(started.length, 1);
  });
});
