import type { BulkKind, MailPreferences, StoppedAddress } from '@common/schemas/mail-members';
import { AppError } from '../../../lib/app-error';
import type { UsersRepository } from '../../users/users.repository';
import type { PreferencesRepository } from './preferences.repository';
import type { UnsubscribeLinks } from './unsubscribe-links';

/**
 * What members choose to receive (on /account and on the unsubscribe page), and the addresses
 * bulk mail stopped for (a hard bounce, or a complaint the owner marked). Only bulk mail reads
 * these: a reset, an e-mail change or a receipt is never held back.
 */
export class PreferencesService {
  constructor(
    private readonly repository: PreferencesRepository,
    private readonly users: UsersRepository,
    private readonly links: UnsubscribeLinks,
  ) {}

  of(userId: string): Promise<MailPreferences> {
    return this.repository.of(userId);
  }

  async save(userId: string, preferences: MailPreferences): Promise<MailPreferences> {
    await this.repository.save(userId, preferences);
    return preferences;
  }

  /** The member and kind an unsubscribe address names; a forged or damaged one is refused. */
  async byToken(token: string): Promise<{ userId: string; kind: BulkKind; email: string }> {
    const named = this.links.read(token);
    const user = named ? await this.users.findById(named.userId) : null;
    if (!named || !user)
      throw new AppError('NOT_FOUND', 'This unsubscribe link is not valid (or the account was deleted).');
    return { ...named, email: user.email };
  }

  /** RFC 8058's one click: that kind of mail, off. */
  async unsubscribe(token: string): Promise<BulkKind> {
    const { userId, kind } = await this.byToken(token);
    await this.repository.turnOff(userId, kind);
    return kind;
  }

  async stopped(): Promise<StoppedAddress[]> {
    return (await this.repository.stopped(200)).map((doc) => ({
      email: doc.stopEmail ?? '',
      reason: doc.stopReason!,
      detail: doc.stopDetail ?? '',
      at: (doc.stopAt ?? doc.updatedAt).toISOString(),
    }));
  }

  /** The owner marks a member's address as complaining (a spam report): no more bulk mail to it. */
  async markComplaint(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new AppError('NOT_FOUND', 'No member has that e-mail address.');
    await this.repository.save(user._id, {
      stopReason: 'complaint',
      stopDetail: 'Marked as a complaint by the owner.',
      stopAt: new Date(),
      stopEmail: user.email,
    });
  }
}
