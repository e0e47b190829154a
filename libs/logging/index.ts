export { pylonLoggerOptions, REQUEST_ID_KEY } from './logger-options';
export { bufferedStdout } from './log-destination';
export { describeError, sqlText, type ErrorDescription } from './error-description';
export { maskSecrets, REDACTED, REDACTED_PATHS } from './secrets';
export { boundLine, truncate, MAX_LOG_LINE_BYTES, MAX_LOG_STRING_CHARS } from './truncation';
export { requestIdFor, requestIdMixin, runForRequest, REQUEST_ID_HEADER } from './request-id';
