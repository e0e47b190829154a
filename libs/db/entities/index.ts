import { Agent } from './agent.entity';
import { AgentRun } from './agent-run.entity';
import { AgentVersion } from './agent-version.entity';
import { ApiKey } from './api-key.entity';
import { Organization } from './organization.entity';
import { KnowledgeDocument } from './knowledge-document.entity';
import { PylonEvent } from './event.entity';

export { Agent, AgentRun, AgentVersion, ApiKey, KnowledgeDocument, Organization, PylonEvent };
export const ENTITIES = [Organization, ApiKey, Agent, AgentVersion, AgentRun, KnowledgeDocument, PylonEvent];
