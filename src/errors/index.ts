export { AppError, isAppError } from './app-error.ts';
export { type ErrorCode, errorCodes } from './codes.ts';
export { validate } from './validate.ts';
