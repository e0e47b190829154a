export { AgentsService, type AgentVersionRequest } from './agents.service';
export { AgentsModule } from './agents.module';
