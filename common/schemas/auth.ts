import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../constants';
import { arrivalSchema } from './arrival';
import type { DataAnswer, DoneAnswer, MessageOnly, TokenAnswer } from './envelopes';
import { emailSchema, nameSchema, type PublicUser } from './user';

export const newPasswordSchema = z
  .string({ error: 'Password is required' })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** Sign-in does not re-apply the length rule: a wrong password is simply wrong. */
const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(MAX_PASSWORD_LENGTH, 'Invalid credentials');

// z.object strips unknown keys, so a `role` sent to register never reaches the service.
export const registerBody = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  /** Where the visit came from (the owner's figures); optional, and dropped when malformed. */
  arrival: arrivalSchema,
});
export const loginBody = z.object({ email: emailSchema, password: passwordSchema });
export const forgotPasswordBody = z.object({ email: emailSchema });
export const resetPasswordBody = z.object({ password: newPasswordSchema });
export const resetTokenParam = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Password reset link is invalid or has expired.'),
});

export type RegisterBody = z.infer<typeof registerBody>;
export type LoginBody = z.infer<typeof loginBody>;

/** POST /api/auth/register (201) and /login. */
export type AuthResponse = TokenAnswer;

/** POST /api/auth/forgot-password and PUT /api/auth/reset-password/:token. */
export type MessageResponse = MessageOnly;

/** GET /api/auth/me */
export type MeResponse = DataAnswer<PublicUser>;

/** POST /api/auth/logout */
export type LogoutResponse = DoneAnswer;

/**
 * What the signed token carries besides `exp`, `iat` and `jti` (the id of its server-side
 * session: ending the session ends the token).
 */
export interface TokenPayload {
  user: { id: string; role: 'user' | 'admin' };
}

export const FORGOT_PASSWORD_MESSAGE =
  'If an account with that email exists, a password reset link has been sent.';
