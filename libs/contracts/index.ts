export * from './scopes';
export * from './error-codes';
export * from './agent-run';
export * from './temporal-names';
export * from './api-key-format';
export * from './knowledge';
export * from './events';
export * from './agent-tools';
