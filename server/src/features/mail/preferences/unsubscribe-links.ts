import { createHmac, timingSafeEqual } from 'node:crypto';
import { BULK_KINDS, type BulkKind } from '@common/schemas/mail-members';

/**
 * The address in every bulk mail's List-Unsubscribe: `/api/mail/unsubscribe/<member>-<kind>-<sig>`,
 * signed with the site's key so it names one member and cannot be made for another. It never
 * expires (a mail read a year later still unsubscribes) and grants nothing but the member's mail
 * preferences.
 */
export class UnsubscribeLinks {
  constructor(
    private readonly key: Uint8Array,
    private readonly publicUrl: string,
  ) {}

  token(userId: string, kind: BulkKind): string {
    return `${userId}-${kind}-${this.sign(userId, kind)}`;
  }

  url(userId: string, kind: BulkKind): string {
    return `${this.publicUrl}/api/mail/unsubscribe/${this.token(userId, kind)}`;
  }

  /** The member and kind a token names, or null when it is not one this site signed. */
  read(token: string): { userId: string; kind: BulkKind } | null {
    const match = /^([0-9a-f]{24})-([a-z]+)-([\w-]{22})$/.exec(token);
    if (!match) return null;
    const [, userId, kind, sig] = match as unknown as [string, string, BulkKind, string];
    if (!BULK_KINDS.includes(kind)) return null;
    const expected = Buffer.from(this.sign(userId, kind));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, kind } : null;
  }

  private sign(userId: string, kind: BulkKind): string {
    return createHmac('sha256', this.key)
      .update(`unsubscribe:${userId}:${kind}`)
      .digest('base64url')
      .slice(0, 22);
  }
}
