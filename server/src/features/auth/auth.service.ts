import { signupSourceOf } from '@common/schemas/arrival';
import type { LoginBody, RegisterBody } from '@common/schemas/auth';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import { hashLinkToken, newLinkToken } from '../../lib/link-token';
import type { Mailer } from '../../mail/mailer';
import { DuplicateKeyError } from '../../store/store';
import type { ClientInfo, SessionsService } from '../sessions/sessions.service';
import { voidEmailChange } from '../users/email-change';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../users/passwords';
import { toPublicUser, type UsersRepository } from '../users/users.repository';
import { resetPasswordMail } from './reset-mail';

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface AuthDeps {
  users: UsersRepository;
  sessions: SessionsService;
  mailer: Mailer;
  /** The site's name (the console's Site section): the mails come from it and are signed with it. */
  siteName: () => Promise<string>;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** Registration, sign-in and out, and the password reset by mailed link. */
export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  async register(input: RegisterBody, client: ClientInfo) {
    const { users, sessions } = this.deps;
    try {
      const user = await users.create({
        name: input.name,
        email: input.email,
        password: await hashPassword(input.password),
        role: 'user',
        membershipTier: 'free',
        status: 'active',
        signupSource: signupSourceOf(input.arrival),
      });
      return { token: await sessions.start(user, client), user: toPublicUser(user) };
    } catch (error) {
      if (error instanceof DuplicateKeyError) {
        throw new AppError('CONFLICT', 'An account with this email already exists.');
      }
      throw error;
    }
  }

  async login(input: LoginBody, client: ClientInfo) {
    const user = await this.deps.users.findByEmail(input.email);
    if (!user) {
      await burnPasswordCheck(input.password);
      throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password.');
    }
    if (!(await verifyPassword(user.password, input.password))) {
      throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password.');
    }
    // Told only to someone who knows the password, so it reveals nothing to a guesser.
    if (user.status === 'suspended') {
      throw new AppError('ACCOUNT_SUSPENDED', 'This account is suspended. Please contact support.');
    }
    return { token: await this.deps.sessions.start(user, client), user: toPublicUser(user) };
  }

  logout(sessionId: string): Promise<boolean> {
    return this.deps.sessions.end(sessionId);
  }

  /**
   * Answers at once and does the work afterwards: the lookup, the token and the mail take the
   * same time whether or not the e-mail has an account, and nothing that goes wrong with them
   * (the store, a full disk, the mail server) can change the answer. The link is never logged:
   * without SMTP the owner finds it in the outbox file.
   */
  forgotPassword(email: string): void {
    setImmediate(() => {
      this.sendResetLink(email).catch((error: unknown) =>
        this.deps.log.error({ err: error }, 'A password reset link could not be prepared or queued'),
      );
    });
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const { users, sessions } = this.deps;
    const hash = hashLinkToken(token);
    const user = await users.findByResetTokenHash(hash, new Date());
    const invalid = new AppError('INVALID_TOKEN', 'Password reset link is invalid or has expired.');
    if (!user) throw invalid;
    const updated = await users.updateIfResetTokenMatches(user._id, hash, {
      password: await hashPassword(password),
      resetTokenHash: undefined,
      resetTokenExpiresAt: undefined,
      ...voidEmailChange(user, 'reset'),
    });
    if (!updated) throw invalid;
    // Whoever asked for the link may be shutting out someone who knew the old password, sessions
    // and a pending e-mail change (their way back in) alike.
    await sessions.endAll(user._id);
  }

  private async sendResetLink(email: string): Promise<void> {
    const { users, mailer, publicUrl, log, siteName } = this.deps;
    // Prepared inside the send: bulk mail gives way from the lookup on, the token's write included.
    let userId: string | undefined;
    await mailer.sendPrepared(async () => {
      const user = await users.findByEmail(email);
      if (!user) return null;
      userId = user._id;
      const token = newLinkToken();
      const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MS);
      await users.update(user._id, { resetTokenHash: hashLinkToken(token), resetTokenExpiresAt: expiresAt });
      const link = `${publicUrl}/reset-password/${token}`;
      // The message lives as long as its link: past that hour it is marked failed, not sent.
      return { ...resetPasswordMail(user.email, user.name, link, await siteName()), expiresAt };
    });
    if (userId) log.info({ userId }, 'Password reset link queued for sending');
  }
}
