import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PylonError } from '@pylon/contracts';
import { loadConfig } from '@pylon/config';
import type { KnowledgeDocument } from '@pylon/db';
import type { KnowledgeDocumentRepository, ReplacementRecord, RevisionFields } from './repositories/knowledge-document.repository';
import type { LimitsService } from '@pylon/limits';
import type { StartRequest, WorkflowStarter } from '@pylon/temporal';
import type { DocumentFileStore } from './document-file-store';
import type { KnowledgeBasesService } from './knowledge-bases.service';
import { KnowledgeDocumentsService } from './knowledge-documents.service';

const ORG = '6f1c2a4e-0b7d-4c1e-9a43-2f5e8d7c6b10';
const DOC = '0b9e3a52-7c41-4f0e-8d6a-1e2f3a4b5c6d';

/**
 * An in-memory document behind the repository methods replace uses, recording what it was asked;
 * `interleave` runs before an acceptance, as a concurrent replacement would.
 */
function setup(options: { startFails?: boolean; interleave?: Array<() => void> } = {}) {
  const calls: string[] = [];
  const remembered = new Map<string, { requestHash: string; revision: number }>();
  let document: KnowledgeDocument = {
    id: DOC,
    orgId: ORG,
    knowledgeBaseId: '5d1f7a3c-2b4e-4c6a-9e8d-7f6a5b4c3d2e',
    title: 'Handbook',
    content: 'old text',
    metadata: { team: 'docs' },
    status: 'ready',
    failureReason: null,
    chunkCount: 3,
    revision: 1,
    readyRevision: 1,
    fileName: null,
    fileType: null,
    fileSize: null,
    fileKey: null,
    textExtracted: true,
    pageStarts: null,
    batchId: null,
    idempotencyKey: null,
    requestHash: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  const documents = {
    findById: async (orgId: string, docId: string) => (orgId === ORG && docId === DOC ? { ...document } : null),
    findReplacement: async (_orgId: string, _docId: string, key: string) => remembered.get(key) ?? null,
    countProcessing: async () => 0,
    acceptRevision: async (_orgId: string, _docId: string, expected: number, fields: RevisionFields, replacement: ReplacementRecord | null) => {
      options.interleave?.shift()?.();
      calls.push(`accept ${expected + 1}`);
      if (document.revision !== expected) return 'stale';
      if (replacement && remembered.has(replacement.idempotencyKey)) return 'key-taken';
      document = { ...document, ...fields, revision: expected + 1, status: 'processing', failureReason: null };
      if (replacement) remembered.set(replacement.idempotencyKey, { requestHash: replacement.requestHash, revision: expected + 1 });
      return { ...document };
    },
  } as unknown as KnowledgeDocumentRepository;
  const workflows = {
    start: async (request: StartRequest) => {
      calls.push(`start ${request.workflowId} ${JSON.stringify(request.args[0])}${request.rerunWhenClosed ? ' rerunnable' : ''}`);
      if (options.startFails) throw new Error('temporal is down');
    },
  } as unknown as WorkflowStarter;
  const limits = { admitToBacklog: async () => void calls.push('admit'), dispatchWeight: async () => 2 } as unknown as LimitsService;
  const files = { remove: async () => {} } as unknown as DocumentFileStore;
  const service = new KnowledgeDocumentsService(documents, workflows, loadConfig({}), limits, files, {} as KnowledgeBasesService);
  return { service, calls, current: () => document, concurrentReplacement: () => (document = { ...document, revision: document.revision + 1 }) };
}

describe('KnowledgeDocumentsService.replace', () => {
  it("starts revision n+1's workflow first, then writes the revision; absent title and metadata are kept", async () => {
    const { service, calls } = setup();
    const replaced = await service.replace(ORG, DOC, { content: 'new text' }, null);
    assert.equal(replaced.revision, 2);
    assert.equal(replaced.status, 'processing');
    assert.equal(replaced.readyRevision, 1, 'search still serves revision 1');
    assert.equal(replaced.title, 'Handbook');
    assert.deepEqual(replaced.metadata, { team: 'docs' });
    assert.deepEqual(calls, ['admit', `start kb-ingest:${DOC}:r2 {"docId":"${DOC}","orgId":"${ORG}","revision":2} rerunnable`, 'accept 2']);
  });

  it('an unavailable workflow engine changes nothing: orchestrator_unavailable, the document as it was', async () => {
    const { service, calls, current } = setup({ startFails: true });
    const before = current();
    await assert.rejects(
      service.replace(ORG, DOC, { content: 'new text', title: 'New' }, 'key-1'),
      (error: unknown) => error instanceof PylonError && error.code === 'orchestrator_unavailable',
    );
    assert.deepEqual(current(), before);
    assert.ok(!calls.some((call) => call.startsWith('accept')), 'nothing was written');
  });

  it('a replacement that loses the race for n+1 to a concurrent one becomes n+2', async () => {
    const interleave: Array<() => void> = [];
    const { service, calls, concurrentReplacement } = setup({ interleave });
    interleave.push(() => concurrentReplacement());
    const replaced = await service.replace(ORG, DOC, { content: 'mine' }, null);
    assert.equal(replaced.revision, 3);
    assert.equal(replaced.content, 'mine');
    assert.deepEqual(
      calls.filter((call) => !call.startsWith('admit')).map((call) => call.split(' {')[0]),
      [`start kb-ingest:${DOC}:r2`, 'accept 2', `start kb-ingest:${DOC}:r3`, 'accept 3'],
    );
  });

  it('same key and body answer the document without another revision; another body is 409 idempotency_key_reused', async () => {
    const { service, calls } = setup();
    assert.equal((await service.replace(ORG, DOC, { content: 'new text' }, 'key-1')).revision, 2);
    assert.equal((await service.replace(ORG, DOC, { content: 'new text' }, 'key-1')).revision, 2);
    assert.equal(calls.filter((call) => call.startsWith('start')).length, 1);
    await assert.rejects(
      service.replace(ORG, DOC, { content: 'other text' }, 'key-1'),
      (error: unknown) => error instanceof PylonError && error.code === 'idempotency_key_reused',
    );
    await assert.rejects(
      service.replace(ORG, DOC, { content: 'new text', title: 'Other' }, 'key-1'),
      (error: unknown) => error instanceof PylonError && error.code === 'idempotency_key_reused',
    );
  });

  it('404 for a document the organisation does not have', async () => {
    const { service } = setup();
    await assert.rejects(
      service.replace('11111111-1111-4111-8111-111111111111', DOC, { content: 'x' }, null),
      (error: unknown) => error instanceof PylonError && error.code === 'not_found',
    );
  });
});
