import { z } from 'zod';
import type { DoneAnswer } from './envelopes';

/** The console's view of the mail queue (GET /api/admin/mail). Never a message's text or link. */
export interface MailQueueMessage {
  id: string;
  to: string;
  subject: string;
  state: 'waiting' | 'sending' | 'failed';
  attempts: number;
  createdAt: string;
  /** When the next attempt is due (waiting messages only). */
  nextAttemptAt: string | null;
  expiresAt: string;
  lastError: string | null;
}

/** GET /api/admin/mail */
export interface MailStatusResponse {
  success: true;
  data: {
    /** 'smtp' with SMTP_URL, else 'outbox' (files in DATA_DIR/outbox). */
    mode: 'smtp' | 'outbox';
    sentToday: number;
    waiting: number;
    failed: number;
    lastError: { message: string; at: string } | null;
    messages: MailQueueMessage[];
  };
}

export const mailIdParam = z.object({
  id: z.string().regex(/^[a-z0-9]+-[0-9a-f]{12}$/, 'That message is not in the mail queue.'),
});

/** POST /api/admin/mail/:id/retry */
export type MailRetryResponse = DoneAnswer;
