import { Admin } from './resources/admin.js';
import { AgentRuns } from './resources/agent-runs.js';
import { AgentSchedules } from './resources/agent-schedules.js';
import { Agents } from './resources/agents.js';
import { ApiKeys } from './resources/api-keys.js';
import { Conversations } from './resources/conversations.js';
import { KnowledgeBases } from './resources/knowledge-bases.js';
import { Knowledge } from './resources/knowledge.js';
import { ModelCredentials } from './resources/model-credentials.js';
import { Tokens } from './resources/tokens.js';
import { Usage } from './resources/usage.js';
import { Videos } from './resources/videos.js';
import { Webhooks } from './resources/webhooks.js';
import { Transport, type ClientOptions } from './transport.js';

/**
 * The Pylon API. `new Pylon()` reads PYLON_API_KEY and PYLON_URL; every method is typed from the OpenAPI
 * document, retries what is safe to retry (creates with one Idempotency-Key across their retries), and
 * throws a PylonError subclass for the API's errors.
 */
export class Pylon {
  readonly agentRuns: AgentRuns;
  readonly agentSchedules: AgentSchedules;
  readonly agents: Agents;
  readonly conversations: Conversations;
  readonly knowledge: Knowledge;
  readonly knowledgeBases: KnowledgeBases;
  readonly videos: Videos;
  readonly webhooks: Webhooks;
  readonly apiKeys: ApiKeys;
  readonly modelCredentials: ModelCredentials;
  readonly tokens: Tokens;
  readonly usage: Usage;
  /** The operator's API: construct the client with the admin token as its apiKey. */
  readonly admin: Admin;
  readonly baseUrl: string;

  constructor(options: ClientOptions = {}) {
    const transport = new Transport(options);
    this.baseUrl = transport.baseUrl;
    this.agentRuns = new AgentRuns(transport);
    this.agentSchedules = new AgentSchedules(transport);
    this.agents = new Agents(transport);
    this.conversations = new Conversations(transport);
    this.knowledge = new Knowledge(transport);
    this.knowledgeBases = new KnowledgeBases(transport);
    this.videos = new Videos(transport);
    this.webhooks = new Webhooks(transport);
    this.apiKeys = new ApiKeys(transport);
    this.modelCredentials = new ModelCredentials(transport);
    this.tokens = new Tokens(transport);
    this.usage = new Usage(transport);
    this.admin = new Admin(transport);
  }
}
