export { toAgentRunView, toAgentRunCreated, runEvent, type AgentRunView, type AgentRunCreatedView } from './run-view';
