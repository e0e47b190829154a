import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requireSupportedNode } from './node-runtime';

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
});
