import type Stripe from 'stripe';
import { ProviderError } from '../payment-provider';
import { loadedStripePackage } from './package';

/* Stripe's refusals and failures, in plain words the owner and the member can act on. */

type StripeErrorClass =
  | 'StripeAuthenticationError'
  | 'StripePermissionError'
  | 'StripeConnectionError'
  | 'StripeRateLimitError'
  | 'StripeInvalidRequestError'
  | 'StripeSignatureVerificationError';

/** `error instanceof Stripe.errors[name]`, without loading the package for it (package.ts). */
export function isStripeError(error: unknown, name: StripeErrorClass): boolean {
  const stripe = loadedStripePackage();
  return stripe !== undefined && error instanceof stripe.errors[name];
}

export const errorOf = (error: unknown) => error as Partial<Stripe.errors.StripeError> | undefined;
export const isMissing = (error: unknown) =>
  errorOf(error)?.statusCode === 404 || errorOf(error)?.code === 'resource_missing';
export const isAuthentication = (error: unknown) =>
  isStripeError(error, 'StripeAuthenticationError') || errorOf(error)?.statusCode === 401;
export const isPermission = (error: unknown) =>
  isStripeError(error, 'StripePermissionError') || errorOf(error)?.statusCode === 403;

export function keyProblem(error: unknown): string {
  if (isAuthentication(error))
    return 'Stripe refused the key: it is not a valid key, or it was deleted or rolled.';
  if (isPermission(error))
    return 'Stripe accepted the key, but it may not do what the site needs: see the permissions listed below.';
  return providerError(error).message;
}

/**
 * Stripe's failure in plain words. Stripe's own messages are never passed on: some quote part of
 * the key ("Invalid API Key provided: sk_test_****1234").
 */
export function providerError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = errorOf(error);
  const details = { type: e?.type, code: e?.code, status: e?.statusCode, requestId: e?.requestId };
  if (isStripeError(error, 'StripeConnectionError'))
    return new ProviderError('Stripe could not be reached. Please try again in a moment.', true, details);
  if (isAuthentication(error))
    return new ProviderError(
      'Stripe refused the site’s key: the owner needs to check the Payments settings.',
      false,
      details,
    );
  if (isPermission(error))
    return new ProviderError(
      'The site’s Stripe key lacks a permission: the owner needs to check the Payments settings.',
      false,
      details,
    );
  if (isStripeError(error, 'StripeRateLimitError') || (e?.statusCode ?? 0) >= 500)
    return new ProviderError(
      'Stripe is busy or having trouble. Please try again in a moment.',
      true,
      details,
    );
  if (isStripeError(error, 'StripeInvalidRequestError'))
    return new ProviderError(
      'Stripe refused the request: the owner needs to check the Payments settings (the prices).',
      false,
      details,
    );
  return new ProviderError('Stripe could not be reached. Please try again in a moment.', true, details);
}

export async function call<R>(work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    throw providerError(error);
  }
}
