export { AppError, isAppError } from './app-error.ts';
export { type ErrorCode, errorCodes } from './codes.ts';
export {
  OAuthError,
  type OAuthErrorCode,
  oauthBody,
  oauthErrorCodes,
  type SecurityEventErrorCode,
  securityEventErrorCodes,
} from './oauth.ts';
export {
  isDependencyUnavailable,
  UNAVAILABLE_RETRY_AFTER,
  unavailableError,
} from './unavailable.ts';
export { validate } from './validate.ts';
