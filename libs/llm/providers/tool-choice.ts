import { KNOWLEDGE_SEARCH_TOOL, splitMcpToolName } from '@pylon/contracts';
import type { ToolSpec } from '../llm-provider';
import { inputNamesTool } from './function-arguments';

/**
 * The tools the offline model calls for an input, in the request's order: knowledge_search always; a
 * function tool the input names; an MCP tool the input names as `<server_label>.<tool>`, or by the tool's
 * own name alone. A bare name calls one MCP tool at most: none when a function tool of that name is called
 * or the input spells the name with a server's label somewhere (those say which), else the first tool of
 * that name in the version's order (its servers in order, each server's tools as listed). A name after a dot (`other.lookup_order`) is
 * not bare: it names a server, even one this version does not have.
 */
export function toolsToCall(input: string, tools: readonly ToolSpec[]): ToolSpec[] {
  const chosen = new Set(tools.filter((tool) => tool.name === KNOWLEDGE_SEARCH_TOOL || inputNamesTool(input, tool.name)));
  const claimed = new Set([...chosen].map((tool) => splitMcpToolName(tool.name)?.tool ?? tool.name));
  for (const tool of tools) {
    const tail = splitMcpToolName(tool.name)?.tool;
    if (tail === undefined || claimed.has(tail) || !inputNamesTool(input, tail, { bare: true })) continue;
    claimed.add(tail);
    chosen.add(tool);
  }
  return tools.filter((tool) => chosen.has(tool));
}
