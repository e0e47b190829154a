export { guardedFetch, type GuardedFetch } from './guarded-fetch';
export { withMcpClient, type McpEndpoint } from './mcp-client';
export { callResultText, cutToSize, listedTools } from './mcp-results';
