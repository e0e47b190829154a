import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

/** The repository root, seen from dist-test/test/. */
const ROOT = join(__dirname, '..', '..');
const PACKAGE = join(ROOT, 'packages', 'python');
const GENERATOR = join(PACKAGE, 'scripts', 'generate_sync.py');
const SYNC = join(PACKAGE, 'src', 'pylon_sdk', '_sync');

function pythonModules(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.py'))
    .sort();
}

/**
 * pylon_sdk's sync client (pylon_sdk/_sync) is generated from its async one (pylon_sdk/_async) by unasync and
 * checked in, since users install the package from the source tree: it must be what the generator makes now.
 * No stack: the generator reads only the async sources.
 */
describe('pylon_sdk (Python): the sync client is generated from the async one', () => {
  let work: string;
  let tools: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'pylon-python-sync-'));
    tools = execFileSync('bash', [join(ROOT, 'scripts', 'ensure-python-sdk-tools.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('pylon_sdk/_sync is what packages/python/scripts/generate_sync.py makes now (PY_SDK_UPDATE_SYNC=1 regenerates it)', () => {
    const python = join(tools, 'bin', 'python');
    if (process.env.PY_SDK_UPDATE_SYNC === '1') execFileSync(python, [GENERATOR], { stdio: ['ignore', 'ignore', 'inherit'] });
    const generated = join(work, '_sync');
    execFileSync(python, [GENERATOR, '--out', generated], { stdio: ['ignore', 'ignore', 'inherit'] });
    const stale = 'packages/python/src/pylon_sdk/_sync is stale: edit pylon_sdk/_async, then run this test with PY_SDK_UPDATE_SYNC=1';
    assert.deepEqual(pythonModules(SYNC), pythonModules(generated), stale);
    for (const name of pythonModules(generated)) {
      assert.equal(readFileSync(join(SYNC, name), 'utf8'), readFileSync(join(generated, name), 'utf8'), `${name}: ${stale}`);
    }
  });

  it('every generated module says so, and has no await, async def, async for or async with left', () => {
    for (const name of pythonModules(SYNC)) {
      const text = readFileSync(join(SYNC, name), 'utf8');
      assert.match(text, /^# Generated from pylon_sdk\/_async\/\S+ by packages\/python\/scripts\/generate_sync\.py \(unasync\): do not edit\./, name);
      assert.doesNotMatch(text, /\bawait\b|\basync (def|for|with)\b|isawaitable|^import asyncio/m, `${name} still has async code in it`);
    }
  });
});
