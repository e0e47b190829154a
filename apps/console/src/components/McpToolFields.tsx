import type { Schemas } from '../api/client';

/** An MCP server as the version form edits it; header values are typed into masked inputs and sent once. */
export interface McpServerDraft {
  label: string;
  url: string;
  /** Comma-separated tool names; empty: every tool the server lists. */
  allowedTools: string;
  headers: Array<{ name: string; value: string }>;
  approval: 'never' | 'always';
}

export const NEW_MCP_SERVER: McpServerDraft = { label: '', url: '', allowedTools: '', headers: [], approval: 'never' };

/** The draft as the API takes it. */
export function mcpTool(draft: McpServerDraft): Schemas['AgentToolRequest'] {
  const allowed = draft.allowedTools
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const headers = draft.headers.filter((header) => header.name.trim() !== '');
  return {
    type: 'mcp',
    server_label: draft.label.trim(),
    server_url: draft.url.trim(),
    require_approval: draft.approval,
    ...(allowed.length > 0 ? { allowed_tools: allowed } : {}),
    ...(headers.length > 0 ? { headers: Object.fromEntries(headers.map((header) => [header.name.trim(), header.value])) } : {}),
  };
}

/**
 * The MCP servers of a new version: label, URL, allowed tools, headers (values in password inputs: the API
 * keeps them encrypted and never shows them again) and whether each call needs approval.
 */
export function McpToolFields({ servers, onChange }: { servers: McpServerDraft[]; onChange: (servers: McpServerDraft[]) => void }) {
  const update = (index: number, change: Partial<McpServerDraft>) =>
    onChange(servers.map((server, i) => (i === index ? { ...server, ...change } : server)));
  return (
    <>
      {servers.map((server, index) => {
        const id = `mcp-${index}`;
        const name = server.label.trim() || `server ${index + 1}`;
        return (
          <fieldset key={index} className="stack">
            <legend>MCP server {index + 1}</legend>
            <label htmlFor={`${id}-label`}>Server label</label>
            <input
              id={`${id}-label`}
              required
              pattern="[a-zA-Z][a-zA-Z0-9_\-]{0,31}"
              maxLength={32}
              value={server.label}
              onChange={(event) => update(index, { label: event.target.value })}
              placeholder="docs"
              aria-describedby={`${id}-label-hint`}
            />
            <p id={`${id}-label-hint`} className="hint">
              The model calls its tools as <code>{server.label.trim() || 'label'}.tool_name</code>.
            </p>
            <label htmlFor={`${id}-url`}>Server URL</label>
            <input
              id={`${id}-url`}
              type="url"
              required
              maxLength={2_048}
              value={server.url}
              onChange={(event) => update(index, { url: event.target.value })}
              placeholder="https://mcp.example.com/mcp"
            />
            <label htmlFor={`${id}-tools`}>Allowed tools (optional, comma-separated; empty: all it lists)</label>
            <input id={`${id}-tools`} value={server.allowedTools} onChange={(event) => update(index, { allowedTools: event.target.value })} />
            {server.headers.map((header, h) => (
              <div key={h} className="row">
                <label htmlFor={`${id}-header-${h}-name`}>Header name</label>
                <input
                  id={`${id}-header-${h}-name`}
                  required
                  maxLength={100}
                  value={header.name}
                  onChange={(event) => update(index, { headers: server.headers.map((x, j) => (j === h ? { ...x, name: event.target.value } : x)) })}
                  placeholder="Authorization"
                />
                <label htmlFor={`${id}-header-${h}-value`}>Header value</label>
                <input
                  id={`${id}-header-${h}-value`}
                  type="password"
                  autoComplete="off"
                  required
                  maxLength={4_096}
                  value={header.value}
                  onChange={(event) => update(index, { headers: server.headers.map((x, j) => (j === h ? { ...x, value: event.target.value } : x)) })}
                />
                <button type="button" onClick={() => update(index, { headers: server.headers.filter((_, j) => j !== h) })}>
                  Remove header {h + 1} of {name}
                </button>
              </div>
            ))}
            <div className="row">
              <button type="button" onClick={() => update(index, { headers: [...server.headers, { name: '', value: '' }] })}>
                Add a header to {name}
              </button>
            </div>
            <p className="hint">Header values are stored encrypted and never shown again (every response shows ********).</p>
            <label className="check">
              <input
                type="checkbox"
                checked={server.approval === 'always'}
                onChange={(event) => update(index, { approval: event.target.checked ? 'always' : 'never' })}
              />{' '}
              Each call of {name} waits for a person to approve it
            </label>
            <div>
              <button type="button" className="danger" onClick={() => onChange(servers.filter((_, i) => i !== index))}>
                Remove {name}
              </button>
            </div>
          </fieldset>
        );
      })}
      <div>
        <button type="button" onClick={() => onChange([...servers, NEW_MCP_SERVER])}>
          Add an MCP server
        </button>
      </div>
    </>
  );
}
