import { z } from 'zod';

/** POST /api/auth/reauth */
export const reauthBody = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});

export interface ReauthResponse {
  success: true;
  /** Sent back in the X-Reauth header of the changes that need it. */
  proof: string;
  /** When the proof stops working (ISO time). */
  expiresAt: string;
}

export const REAUTH_HEADER = 'x-reauth';
export const REAUTH_TTL_MS = 10 * 60 * 1000;
