import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { PYLON_NODE_FLAGS, missingNodeFlagsWarning, requireSupportedNode } from './node-runtime';

describe('the Node runtime check', () => {
  it('accepts Node 22.12 and later', () => {
    for (const version of ['22.12.0', '22.23.3', '24.1.0']) assert.doesNotThrow(() => requireSupportedNode(version), version);
  });

  it('refuses end-of-life and too-old Node with the way out', () => {
    for (const version of ['20.20.2', '22.11.0', '18.0.0']) {
      assert.throws(() => requireSupportedNode(version), /needs Node 22\.12 or later and this is Node .*node_modules\/\.bin/, version);
    }
  });

  it('is the Node this suite runs on', () => {
    assert.doesNotThrow(() => requireSupportedNode());
    assert.ok(Number(process.versions.node.split('.')[0]) >= 22, process.version);
  });

  it('warns about a process started without the flags, and only then', () => {
    assert.equal(missingNodeFlagsWarning([...PYLON_NODE_FLAGS, '--enable-source-maps']), null);
    assert.match(missingNodeFlagsWarning([]) ?? '', /^started without --experimental-async-context-frame; every request costs more CPU/);
  });

  it('Node accepts the flags on the command line', () => {
    const result = spawnSync(process.execPath, [...PYLON_NODE_FLAGS, '-e', 'process.stdout.write(JSON.stringify(process.execArgv))'], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '', 'no warning either');
    assert.equal(missingNodeFlagsWarning(JSON.parse(result.stdout)), null);
  });
});
