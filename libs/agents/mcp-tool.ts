import {
  PylonError,
  MASKED_HEADER_VALUE,
  MAX_MCP_ALLOWED_TOOLS,
  MAX_MCP_HEADERS,
  MAX_MCP_HEADER_VALUE_CHARS,
  MAX_MCP_SERVER_URL_CHARS,
  MCP_HEADER_NAME_PATTERN,
  MCP_SERVER_LABEL_PATTERN,
  MCP_TOOL,
  mcpHeaderContext,
  type AgentToolConfig,
  type ApprovalPolicy,
  type McpToolConfig,
} from '@pylon/contracts';
import type { SecretBox } from '@pylon/secrets';
import { assertNoPrivateTargetInUrl, RefusedUrlError, type PrivateTargets } from '@pylon/webhooks';

/** What an MCP tool request carries (the DTO checks the shapes; the rules are here). */
export interface McpToolRequest {
  server_label?: string;
  server_url?: string;
  allowed_tools?: string[] | null;
  headers?: Record<string, string> | null;
  require_approval?: ApprovalPolicy;
}

export const MCP_TOOL_FIELDS = ['type', 'server_label', 'server_url', 'allowed_tools', 'headers', 'require_approval'] as const;

const LABEL = new RegExp(MCP_SERVER_LABEL_PATTERN);
const HEADER_NAME = new RegExp(MCP_HEADER_NAME_PATTERN);
const TOOL_NAME = /^[a-zA-Z0-9_.-]{1,128}$/;
/** Headers the client sets itself, or that would change how the request is framed. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
]);

/**
 * An MCP tool as stored, its headers still plain (sealHeaders seals them): a label matching the pattern,
 * an http(s) URL without credentials whose host is no address the private-target policy refuses (as a
 * webhook receiver's), allowed tool names, header names and values that HTTP can carry.
 * Throws 400 naming the field (`tools.<i>.<field>: …`).
 */
export function mcpTool(tool: McpToolRequest, at: string, privateTargets: PrivateTargets): McpToolConfig {
  if (tool.server_label === undefined) throw PylonError.invalidRequest(`${at}.server_label: an mcp tool needs a server_label`);
  if (!LABEL.test(tool.server_label)) throw PylonError.invalidRequest(`${at}.server_label: must match ${MCP_SERVER_LABEL_PATTERN}`);
  if (tool.server_url === undefined) throw PylonError.invalidRequest(`${at}.server_url: an mcp tool needs a server_url`);
  const urlFault = faultOfUrl(tool.server_url);
  if (urlFault) throw PylonError.invalidRequest(`${at}.server_url: ${urlFault}`);
  assertPublicOrAllowed(`${at}.server_url`, tool.server_url, privateTargets);
  const allowed = tool.allowed_tools ?? null;
  if (allowed !== null) {
    if (allowed.length === 0) throw PylonError.invalidRequest(`${at}.allowed_tools: list at least one tool, or leave it out for all`);
    if (allowed.length > MAX_MCP_ALLOWED_TOOLS) throw PylonError.invalidRequest(`${at}.allowed_tools: at most ${MAX_MCP_ALLOWED_TOOLS} tools`);
    const bad = allowed.find((name) => typeof name !== 'string' || !TOOL_NAME.test(name));
    if (bad !== undefined) throw PylonError.invalidRequest(`${at}.allowed_tools: "${String(bad)}" is not a tool name (${TOOL_NAME.source})`);
    if (new Set(allowed).size !== allowed.length) throw PylonError.invalidRequest(`${at}.allowed_tools: a tool is listed twice`);
  }
  const headers = tool.headers ?? null;
  if (headers !== null) {
    const entries = Object.entries(headers);
    if (entries.length > MAX_MCP_HEADERS) throw PylonError.invalidRequest(`${at}.headers: at most ${MAX_MCP_HEADERS} headers`);
    const lowered = new Set<string>();
    for (const [name, value] of entries) {
      if (!HEADER_NAME.test(name)) throw PylonError.invalidRequest(`${at}.headers: "${name.slice(0, 100)}" is not a header name`);
      if (RESERVED_HEADERS.has(name.toLowerCase())) throw PylonError.invalidRequest(`${at}.headers: ${name} is set by Pylon's MCP client`);
      if (lowered.has(name.toLowerCase())) throw PylonError.invalidRequest(`${at}.headers: ${name} is given twice`);
      lowered.add(name.toLowerCase());
      if (typeof value !== 'string') throw PylonError.invalidRequest(`${at}.headers.${name}: must be a string`);
      if (value.length === 0 || value.length > MAX_MCP_HEADER_VALUE_CHARS) {
        throw PylonError.invalidRequest(`${at}.headers.${name}: must be 1 to ${MAX_MCP_HEADER_VALUE_CHARS} characters`);
      }
      if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw PylonError.invalidRequest(`${at}.headers.${name}: must not contain control characters`);
    }
  }
  return {
    type: MCP_TOOL,
    server_label: tool.server_label,
    server_url: tool.server_url,
    allowed_tools: allowed,
    require_approval: tool.require_approval ?? 'never',
    ...(headers !== null && Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

function faultOfUrl(value: string): string | null {
  if (value.length > MAX_MCP_SERVER_URL_CHARS) return `at most ${MAX_MCP_SERVER_URL_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry credentials (send them in headers)';
  if (url.hash) return 'must not have a fragment';
  return null;
}

/**
 * Only what the URL itself says is judged here (a literal address, `localhost`): a name is not resolved
 * when the version is made, since the server may not be up yet; the worker checks every address a name
 * resolves to on each connection.
 */
function assertPublicOrAllowed(field: string, url: string, privateTargets: PrivateTargets): void {
  try {
    assertNoPrivateTargetInUrl(field, url, privateTargets);
  } catch (error) {
    if (error instanceof RefusedUrlError) throw PylonError.invalidRequest(error.message);
    throw error;
  }
}

/**
 * The version's tools with every MCP header value sealed under SECRETS_KEY. A server without one refuses
 * headers with 400 (it could only keep them in plain text).
 */
export function sealHeaders(tools: readonly AgentToolConfig[], box: SecretBox): AgentToolConfig[] {
  return tools.map((tool, index) => {
    if (tool.type !== MCP_TOOL || !tool.headers) return tool;
    if (!box.canSeal) {
      throw PylonError.invalidRequest(
        `tools.${index}.headers: this server keeps no secrets (its operator has not set SECRETS_KEY), so it cannot take headers`,
      );
    }
    const sealed = Object.fromEntries(
      Object.entries(tool.headers).map(([name, value]) => [name, box.seal(value, mcpHeaderContext(tool.server_label, name))]),
    );
    return { ...tool, headers: sealed };
  });
}

/** The tools as the request's fingerprint sees them: header values as digests under SECRETS_KEY, never plain. */
export function fingerprintableTools(tools: readonly AgentToolConfig[], box: SecretBox): AgentToolConfig[] {
  return tools.map((tool) =>
    tool.type === MCP_TOOL && tool.headers && box.canSeal
      ? { ...tool, headers: Object.fromEntries(Object.entries(tool.headers).map(([name, value]) => [name, box.digest(value)])) }
      : tool,
  );
}

/** An MCP tool as every response shows it: its header names, each value masked. */
export function maskedHeaders(tool: McpToolConfig): McpToolConfig {
  if (!tool.headers) return tool;
  return { ...tool, headers: Object.fromEntries(Object.keys(tool.headers).map((name) => [name, MASKED_HEADER_VALUE])) };
}
