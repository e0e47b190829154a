import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PylonError, ErrorCode } from '@pylon/contracts';
import { PrivateTargets } from '@pylon/webhooks';
import { mcpTool } from './mcp-tool';

const at = 'tools.0';
const server = (server_url: string) => ({ server_label: 'shop', server_url });

function refusal(url: string, allowed: PrivateTargets): string {
  try {
    mcpTool(server(url), at, allowed);
  } catch (error) {
    assert.ok(error instanceof PylonError, String(error));
    assert.equal(error.code, ErrorCode.InvalidRequest);
    return error.detail ?? '';
  }
  assert.fail(`${url} was accepted`);
}

describe("an MCP tool's server_url and the private-target policy", () => {
  it('refuses a literal private, loopback or metadata address the operator does not list, as a webhook receiver', () => {
    for (const url of [
      'http://169.254.169.254/mcp',
      'http://127.0.0.1/mcp',
      'http://10.0.0.1/mcp',
      'http://[::1]/mcp',
      'http://localhost:8080/mcp',
      'http://[::ffff:169.254.169.254]/mcp',
      'http://2130706433/mcp',
    ]) {
      assert.match(
        refusal(url, PrivateTargets.NONE),
        /^tools\.0\.server_url points at a non-public address \(.+\) that WEBHOOK_ALLOWED_PRIVATE_TARGETS does not list$/,
      );
    }
  });

  it('takes the private addresses the operator lists, never a metadata address', () => {
    const loopback = PrivateTargets.parse(['loopback']);
    for (const url of ['http://127.0.0.1:3000/mcp', 'http://[::1]/mcp', 'http://localhost/mcp']) {
      assert.equal(mcpTool(server(url), at, loopback).server_url, url);
    }
    assert.match(refusal('http://10.0.0.1/mcp', loopback), /\(10\.0\.0\.1\)/);
    const everything = PrivateTargets.parse(['0.0.0.0/0', '::/0']);
    assert.match(refusal('http://169.254.169.254/mcp', everything), /\(169\.254\.169\.254\)/);
    assert.match(refusal('http://[fd00:ec2::254]/mcp', everything), /non-public address/);
  });

  it('takes a public address, and a name unresolved (the worker checks what it resolves to on each connection)', () => {
    assert.equal(mcpTool(server('https://93.184.216.34/mcp'), at, PrivateTargets.NONE).server_url, 'https://93.184.216.34/mcp');
    assert.equal(mcpTool(server('https://mcp.example.invalid/mcp'), at, PrivateTargets.NONE).server_url, 'https://mcp.example.invalid/mcp');
  });
});
