import type { z } from 'zod';
import { AppError } from './app-error';

/**
 * Parses untrusted input with a schema. Unknown keys are dropped by the schemas and a
 * wrong type (an object where a string belongs) is a 400 before anything reaches a query.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new AppError('VALIDATION', 'Invalid input');
  const given = valueAt(input, issue.path);
  // A missing field keeps the schema's own words ("Email is required"); a value of the
  // wrong kind, such as {"$ne": null}, is named plainly instead.
  const message =
    issue.code === 'invalid_type' && given !== undefined && given !== null
      ? `${issue.path.join('.') || 'body'} must be a ${issue.expected}`
      : issue.message;
  throw new AppError('VALIDATION', message);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
