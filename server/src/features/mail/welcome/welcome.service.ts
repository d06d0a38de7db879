import type { WelcomeSettings } from '@common/schemas/mail-members';
import type { Tier } from '@common/schemas/user';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../../mail/mailer';
import { renderMarkdown } from '../../courses/markdown';
import type { UserDoc } from '../../users/users.repository';
import { absoluteLinks } from '../bulk/bulk-message';
import type { MailSettingsRepository } from '../mail-settings.repository';

/**
 * The welcome mails: one when a member joins, one when they become paid (Stripe or the owner).
 * Written by the owner in Markdown; `{{name}}` and `{{site}}` are filled in. They go through the
 * durable queue like a reset mail: one message, triggered by the member's own step.
 */
export class WelcomeService {
  /** Welcomes being queued: closing waits for them, so none is cut off half-written. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly settings: MailSettingsRepository,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly siteName: () => Promise<string>,
    private readonly log: FastifyBaseLogger,
  ) {}

  read(): Promise<WelcomeSettings> {
    return this.settings.welcome();
  }

  async save(welcome: WelcomeSettings): Promise<WelcomeSettings> {
    await this.settings.saveWelcome(welcome);
    return this.settings.welcome();
  }

  /** What the owner is writing, to the owner's own address, with their own name filled in. */
  async sendTest(
    mail: { subject: string; markdown: string },
    owner: Pick<UserDoc, 'name' | 'email'>,
  ): Promise<void> {
    await this.send({ ...mail, subject: `[Test] ${mail.subject}` }, owner);
  }

  /** Called after an account is made (not awaited: a sign-up never waits on it, nor fails by it). */
  joined(user: UserDoc): void {
    if (user.role !== 'user') return;
    this.track(this.welcome(user, user.membershipTier === 'paid' ? 'paid' : 'free'));
  }

  /** Called after a member became paid. */
  becamePaid(user: UserDoc): void {
    if (user.role !== 'user') return;
    this.track(this.welcome(user, 'paid'));
  }

  /** Resolves once every welcome under way is in the queue. */
  async settle(): Promise<void> {
    await Promise.all(this.pending);
  }

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private async welcome(user: UserDoc, tier: Tier): Promise<void> {
    try {
      const mail = (await this.settings.welcome())[tier];
      if (!mail.enabled) return;
      await this.send(mail, user);
    } catch (error) {
      this.log.error({ err: error, userId: user._id }, `The ${tier} welcome mail could not be queued`);
    }
  }

  private async send(mail: { subject: string; markdown: string }, to: Pick<UserDoc, 'name' | 'email'>) {
    const site = await this.siteName();
    const fill = (text: string) => text.replaceAll('{{name}}', to.name).replaceAll('{{site}}', site);
    const markdown = fill(mail.markdown);
    await this.mailer.send({
      to: to.email,
      subject: fill(mail.subject),
      text: markdown,
      html: absoluteLinks(await renderMarkdown(markdown), this.publicUrl),
    });
  }
}
