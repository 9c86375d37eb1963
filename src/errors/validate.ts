/** Validates input with a zod schema; a failure is the caller's mistake, `invalid_request`. */
import type { z } from 'zod';
import { AppError } from './app-error.ts';

export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new AppError('invalid_request', `${where}${issue.message}`, {
    extra: { field: issue.path.join('.') || undefined },
  });
}
