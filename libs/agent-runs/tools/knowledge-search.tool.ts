import { Injectable } from '@nestjs/common';
import { KNOWLEDGE_SEARCH_TOOL, toolName, type KnowledgeToolHit, type ToolCall } from '@pylon/contracts';
import { AgentRunRepository } from '../repositories/agent-run.repository';
import { ConversationRepository } from '../repositories/conversation.repository';
import { KnowledgeSearchService } from '@pylon/knowledge';
import { AgentVersions } from '../agent-versions';
import { RunEventsService } from '../run-events.service';
import { RunNotFoundError } from '../run-errors';

/**
 * The tool Pylon runs in an activity (MCP servers' tools have their own, tools/mcp-tools.service.ts): a
 * knowledge search, its result as text for the model, recorded in the run's log with its query and the
 * matched doc_ids. A bad call is explained to the model rather than failing the run.
 */
@Injectable()
export class KnowledgeSearchTool {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly versions: AgentVersions,
    private readonly knowledge: KnowledgeSearchService,
    private readonly runEvents: RunEventsService,
    private readonly conversations: ConversationRepository,
  ) {}

  async run(orgId: string, runId: string, call: ToolCall): Promise<string> {
    const run = await this.runs.findById(orgId, runId);
    const version = run && (await this.versions.find(orgId, run.agentVersionId));
    if (!version) throw new RunNotFoundError(runId);
    const refuse = async (error: string) => {
      await this.runEvents.recordToolResult(orgId, runId, call, { error });
      return JSON.stringify({ error });
    };
    const tool = version.tools.find((candidate) => toolName(candidate) === call.name);
    if (!tool || tool.type !== KNOWLEDGE_SEARCH_TOOL) return refuse(`unknown tool ${call.name}`);
    const query = queryOf(call);
    if (query === null) return refuse('knowledge_search needs {"query": "<text>"}');
    const matches = await this.knowledge.query(orgId, {
      query,
      matchCount: tool.match_count,
      mode: 'hybrid',
      knowledgeBaseIds: tool.knowledge_base_ids,
    });
    const hits: KnowledgeToolHit[] = matches.map((match) => ({
      doc_id: match.docId,
      chunk_id: match.chunkId,
      title: match.title,
      score: match.score,
      content: match.content,
      ...(match.pageStart !== null && match.pageEnd !== null && { page_start: match.pageStart, page_end: match.pageEnd }),
    }));
    await this.runEvents.recordToolResult(orgId, runId, call, { query, doc_ids: [...new Set(hits.map((hit) => hit.doc_id))] });
    const result = JSON.stringify({ matches: hits });
    await this.conversations.appendItems(orgId, runId, [{ type: 'tool_output', data: { call_id: call.id, output: result } }]);
    return result;
  }
}

/** The call's `query`, or null when its arguments hold no usable one. */
function queryOf(call: ToolCall): string | null {
  let query: unknown;
  try {
    query = (JSON.parse(call.arguments) as { query?: unknown }).query;
  } catch {
    return null;
  }
  return typeof query === 'string' && query.trim() !== '' ? query : null;
}
