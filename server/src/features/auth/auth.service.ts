import { createHash, randomBytes } from 'node:crypto';
import type { LoginBody, RegisterBody } from '@common/schemas/auth';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { Mailer } from '../../mail/mailer';
import { DuplicateKeyError } from '../../store/store';
import { toPublicUser, type UserDoc, type UsersRepository } from '../users/users.repository';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { resetPasswordMail } from './reset-mail';
import type { TokenService } from './token-service';

const RESET_TOKEN_BYTES = 32; // 256 random bits
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface AuthDeps {
  users: UsersRepository;
  tokens: TokenService;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function createAuthService({ users, tokens, mailer, publicUrl, log }: AuthDeps) {
  const issueToken = (user: UserDoc) => tokens.sign({ id: user._id, role: user.role, tv: user.tokenVersion });

  return {
    async register(input: RegisterBody) {
      try {
        const user = await users.create({
          name: input.name,
          email: input.email,
          password: await hashPassword(input.password),
          role: 'user',
          membershipTier: 'free',
          status: 'active',
          tokenVersion: 0,
        });
        return { token: await issueToken(user), user: toPublicUser(user) };
      } catch (error) {
        if (error instanceof DuplicateKeyError) {
          throw new AppError('CONFLICT', 'An account with this email already exists.');
        }
        throw error;
      }
    },

    async login(input: LoginBody) {
      const user = await users.findByEmail(input.email);
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
      return { token: await issueToken(user), user: toPublicUser(user) };
    },

    /**
     * Always resolves the same way whether or not the e-mail is known; the mail goes out in
     * the background so that the answer's timing does not tell either.
     */
    async forgotPassword(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (!user) return;
      const token = randomBytes(RESET_TOKEN_BYTES).toString('base64url');
      await users.update(user._id, {
        resetTokenHash: hashResetToken(token),
        resetTokenExpiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      const link = `${publicUrl}/reset-password/${token}`;
      mailer.send(resetPasswordMail(user.email, user.name, link)).then(
        () =>
          log.info(
            { userId: user._id, link: mailer.kind === 'outbox' ? link : undefined },
            'Password reset link sent',
          ),
        (error: unknown) =>
          log.error({ err: error, userId: user._id }, 'Password reset mail could not be sent'),
      );
    },

    async resetPassword(token: string, password: string): Promise<void> {
      const hash = hashResetToken(token);
      const user = await users.findByResetTokenHash(hash, new Date());
      const invalid = new AppError('INVALID_TOKEN', 'Password reset link is invalid or has expired.');
      if (!user) throw invalid;
      const updated = await users.updateIfResetTokenMatches(user._id, hash, {
        password: await hashPassword(password),
        tokenVersion: user.tokenVersion + 1,
        resetTokenHash: undefined,
        resetTokenExpiresAt: undefined,
      });
      if (!updated) throw invalid;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** Only this hash is stored, so a copy of the database holds no usable reset link. */
function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
