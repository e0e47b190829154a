import { Injectable } from '@nestjs/common';
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  KNOWLEDGE_SEARCH_TOOL,
  NON_RETRYABLE_LLM_ERROR,
  RUN_ALREADY_FINISHED_ERROR,
  RUN_NOT_FOUND_ERROR,
  type AgentRunActivities,
  type AgentRunWorkflowInput,
  type KnowledgeToolHit,
  type LlmTurn,
  type ToolCall,
  type TranscriptEntry,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { AgentRepository, AgentRun, AgentRunRepository, AgentVersion } from '@pylon/db';
import { runEvent } from '@pylon/agent-runs';
import { KnowledgeSearchService } from '@pylon/knowledge';
import { LlmRequestRejectedError, LlmService, toolSpecs } from '@pylon/llm';

const VERSION_CACHE_SIZE = 1_000;

/** Thin adapters between the agent-run workflow and the run projection, the LLM and the tools. */
@Injectable()
export class AgentRunActivitiesImpl implements AgentRunActivities {
  private readonly versions = new Map<string, AgentVersion>();

  constructor(
    private readonly runs: AgentRunRepository,
    private readonly agents: AgentRepository,
    private readonly llm: LlmService,
    private readonly knowledge: KnowledgeSearchService,
    private readonly config: PylonConfig,
  ) {}

  /** Marks the run running (a no-op after the first turn) and asks the model for the next turn. */
  async generateTurn({ orgId, runId, transcript }: AgentRunWorkflowInput & { transcript: TranscriptEntry[] }): Promise<LlmTurn> {
    const run = await this.runs.markRunning(orgId, runId);
    if (!run) throw ApplicationFailure.nonRetryable(`run ${runId} does not exist`, RUN_NOT_FOUND_ERROR);
    if (run.status !== 'running') throw ApplicationFailure.nonRetryable(`run ${runId} already ${run.status}`, RUN_ALREADY_FINISHED_ERROR);
    const version = await this.version(orgId, run.agentVersionId);
    if (!version) throw ApplicationFailure.nonRetryable(`the version of run ${runId} does not exist`, RUN_NOT_FOUND_ERROR);
    const context = Context.current();
    const heartbeat = setInterval(() => context.heartbeat(), (this.config.llmHeartbeatTimeoutSeconds * 1000) / 3);
    try {
      return await this.llm.generate(version.model, {
        orgId,
        instructions: version.instructions,
        input: run.input,
        temperature: version.temperature,
        maxOutputTokens: version.maxOutputTokens,
        tools: toolSpecs(version.tools),
        transcript,
        signal: context.cancellationSignal,
      });
    } catch (error) {
      if (error instanceof LlmRequestRejectedError) {
        throw ApplicationFailure.nonRetryable(error.message, NON_RETRYABLE_LLM_ERROR);
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** A tool call's result, as text for the model; a bad call is explained to the model rather than failing the run. */
  async runTool({ orgId, runId, call }: AgentRunWorkflowInput & { call: ToolCall }): Promise<string> {
    const { version } = await this.load(orgId, runId);
    const tool = version.tools.find((candidate) => candidate.type === call.name);
    if (!tool || call.name !== KNOWLEDGE_SEARCH_TOOL) return JSON.stringify({ error: `unknown tool ${call.name}` });
    let query: unknown;
    try {
      query = (JSON.parse(call.arguments) as { query?: unknown }).query;
    } catch {
      query = undefined;
    }
    if (typeof query !== 'string' || query.trim() === '') {
      return JSON.stringify({ error: 'knowledge_search needs {"query": "<text>"}' });
    }
    const matches = await this.knowledge.search(orgId, query, tool.match_count);
    const hits: KnowledgeToolHit[] = matches.map((match) => ({
      doc_id: match.docId,
      chunk_id: match.chunkId,
      title: match.title,
      score: match.score,
      content: match.content,
    }));
    return JSON.stringify({ matches: hits });
  }

  markRunSucceeded({ orgId, runId, output }: AgentRunWorkflowInput & { output: string }): Promise<string | null> {
    return this.runs.markSucceeded(orgId, runId, output, runEvent);
  }

  markRunFailed({ orgId, runId, error }: AgentRunWorkflowInput & { error: string }): Promise<string | null> {
    return this.runs.markFailed(orgId, runId, error, runEvent);
  }

  /** Versions never change once created, so each is read from the database once per process. */
  private async version(orgId: string, versionId: string): Promise<AgentVersion | null> {
    const key = `${orgId}/${versionId}`;
    const cached = this.versions.get(key);
    if (cached) return cached;
    const version = await this.agents.findVersion(orgId, versionId);
    if (version) {
      if (this.versions.size >= VERSION_CACHE_SIZE) this.versions.delete(this.versions.keys().next().value!);
      this.versions.set(key, version);
    }
    return version;
  }

  private async load(orgId: string, runId: string): Promise<{ run: AgentRun; version: AgentVersion }> {
    const run = await this.runs.findById(orgId, runId);
    const version = run && (await this.version(orgId, run.agentVersionId));
    if (!run || !version) throw ApplicationFailure.nonRetryable(`run ${runId} does not exist`, RUN_NOT_FOUND_ERROR);
    return { run, version };
  }
}
