import { Agent } from './agent.entity';
import { AgentRun } from './agent-run.entity';
import { AgentVersion } from './agent-version.entity';
import { ApiKey } from './api-key.entity';
import { Organization } from './organization.entity';

export { Agent, AgentRun, AgentVersion, ApiKey, Organization };
export const ENTITIES = [Organization, ApiKey, Agent, AgentVersion, AgentRun];
