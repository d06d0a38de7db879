// The payment settings in force and the console's edits of them. Seams, in order: reading (effective,
// the provider), the view, saving (the form, a course's price), the price list, Test.
import { createHash } from 'node:crypto';
import type { PriceListing } from '@common/payment-plans';
import type {
  PaymentsCheck,
  PaymentsField,
  PaymentsSecret,
  PaymentsSettingsView,
  PaymentsTestResult,
  paymentsSettingsBody,
  paymentsTestBody,
  SecretState,
} from '@common/schemas/payments';
import type { z } from 'zod';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/app-error';
import { readSavedPayments, type SavedPayments, writeSavedPayments } from '../../settings/payments-file';
import { type EffectivePayments, paymentsInForce } from '../../settings/payments-in-force';
import type { PaymentProvider } from './payment-provider';
import { modeOfKey, refuseUnfitPrices } from './price-rules';
import { WEBHOOK_EVENTS } from './stripe/events';
import { StripeProvider, type StripeSettings } from './stripe/provider';

export const WEBHOOK_PATH = '/api/payments/webhook';

const SAVE_LEASE = 'payments-settings';
const SAVE_BUSY = 'Another save of the payment settings is under way. Please try again.';

export type ProviderFactory = (settings: StripeSettings) => PaymentProvider;

const last4 = (secret: string | undefined): SecretState => ({
  set: Boolean(secret),
  last4: secret ? secret.slice(-4) : null,
});
const modeOf = (key: string | undefined) => (key ? modeOfKey(key) : null);
/** The saved settings a save can change, by name (the Activity log words them). */
export const SAVED_FIELDS = [
  'secretKey',
  'webhookSecret',
  'priceIds',
  'promotionCodes',
  'trialDays',
  'trialWithoutCard',
] as const;
export type SavedField = (typeof SAVED_FIELDS)[number];
const NOT_CONNECTED = 'Connect Stripe first: save the secret key, then choose among your prices.';
const fingerprint = (settings: StripeSettings) =>
  createHash('sha256')
    .update(JSON.stringify([settings.secretKey, settings.webhookSecret, settings.apiBase?.url]))
    .digest('hex');

/**
 * The console's Payments section: Stripe's key, the webhook signing secret and the prices. The
 * file is read afresh on each use, so every server process of the machine follows a save at once.
 * The secrets never leave the server (the view says "set" and their last four characters) and
 * are never logged.
 */
export class PaymentsSettings {
  private cached: { fingerprint: string; provider: PaymentProvider } | null = null;
  private reportedProblems = '';

  constructor(
    private readonly ctx: Pick<AppContext, 'config' | 'log' | 'leases'>,
    private readonly makeProvider: ProviderFactory = (settings) => new StripeProvider(settings),
  ) {}

  private get env() {
    return this.ctx.config.payments;
  }

  private async saved(): Promise<SavedPayments> {
    const { values, problems } = await readSavedPayments(this.ctx.config.dataDir);
    const said = problems.join('\n');
    // Told once, not on every request that reads the file.
    if (said && said !== this.reportedProblems)
      this.ctx.log.warn({ problems }, 'Payment settings file problems');
    this.reportedProblems = said;
    return values;
  }

  /** Environment > saved > default, merged in settings/ with the others (payments-in-force.ts). */
  async effective(): Promise<EffectivePayments> {
    return paymentsInForce(this.env, await this.saved());
  }

  /** Members can upgrade: a key, a signing secret (else their payment would never be seen) and a price. */
  static isReady(settings: EffectivePayments): boolean {
    return Boolean(settings.secretKey && settings.webhookSecret && settings.priceIds.length > 0);
  }

  /** The provider for the settings in force (one client kept while they stay the same); null without a key. */
  providerFor(settings: EffectivePayments): PaymentProvider | null {
    if (!settings.secretKey && !settings.webhookSecret) return null;
    const wanted = {
      secretKey: settings.secretKey,
      webhookSecret: settings.webhookSecret,
      apiBase: settings.apiBase,
    };
    const print = fingerprint(wanted);
    if (this.cached?.fingerprint !== print)
      this.cached = { fingerprint: print, provider: this.makeProvider(wanted) };
    return this.cached.provider;
  }

  async view(): Promise<PaymentsSettingsView> {
    const settings = await this.effective();
    return {
      secretKey: last4(settings.secretKey),
      webhookSecret: last4(settings.webhookSecret),
      priceIds: settings.priceIds,
      mode: modeOf(settings.secretKey),
      ready: PaymentsSettings.isReady(settings),
      fixedByEnvironment: { ...this.env.fixedByEnv },
      webhookUrl: `${this.ctx.config.publicUrl}${WEBHOOK_PATH}`,
      webhookEvents: WEBHOOK_EVENTS,
      apiBase: settings.apiBase?.url ?? null,
      promotionCodes: settings.promotionCodes,
      trialDays: settings.trialDays,
      trialWithoutCard: settings.trialWithoutCard,
      coursePrices: settings.coursePrices,
    };
  }

  private fixed(field: PaymentsField): boolean {
    return field in this.env.fixedByEnv;
  }

  /**
   * Saves the given fields (one save at a time on every process and machine: a lease in the
   * store covers the file's read and write). Fields fixed by the environment are left alone.
   * New prices are first asked of Stripe with the key that will be in force: one that does not
   * exist, belongs to the other mode or cannot be subscribed to is refused, and nothing is saved.
   * Answers which fields changed, by name.
   */
  async save(
    body: z.output<typeof paymentsSettingsBody>,
  ): Promise<{ view: PaymentsSettingsView; changed: SavedField[] }> {
    const current = await this.effective();
    const keyAfter = this.fixed('secretKey')
      ? current.secretKey
      : (body.secretKey ?? (body.remove?.includes('secretKey') ? undefined : current.secretKey));
    const added = this.fixed('priceIds')
      ? []
      : (body.priceIds ?? []).filter((id) => !current.priceIds.includes(id));
    if (keyAfter && added.length > 0)
      await refuseUnfitPrices(
        this.makeProvider({ secretKey: keyAfter, apiBase: current.apiBase }),
        added,
        'membership',
        modeOfKey(keyAfter),
      );
    if (body.promotionCodes && !keyAfter)
      throw new AppError(
        'VALIDATION',
        'Promotion codes need Stripe connected: save the secret key first, then switch them on (the codes are made in Stripe).',
      );
    return this.ctx.leases.run(SAVE_LEASE, SAVE_BUSY, async () => {
      const before = await this.saved();
      const next: SavedPayments = { ...before };
      for (const secret of body.remove ?? []) if (!this.fixed(secret)) delete next[secret as PaymentsSecret];
      for (const field of ['secretKey', 'webhookSecret'] as const) {
        const value = body[field];
        if (value !== undefined && !this.fixed(field)) next[field] = value;
      }
      if (body.priceIds !== undefined && !this.fixed('priceIds')) {
        if (body.priceIds.length > 0) next.priceIds = body.priceIds;
        else delete next.priceIds;
      }
      if (body.promotionCodes !== undefined) next.promotionCodes = body.promotionCodes;
      if (body.trialWithoutCard !== undefined) next.trialWithoutCard = body.trialWithoutCard;
      if (body.trialDays === null) delete next.trialDays;
      else if (body.trialDays !== undefined) next.trialDays = body.trialDays;
      await this.write(next);
      const changed = SAVED_FIELDS.filter(
        (field) => JSON.stringify(next[field]) !== JSON.stringify(before[field]),
      );
      this.ctx.log.info({ changed }, 'Payment settings saved');
      return { view: await this.view(), changed };
    });
  }

  private async write(next: SavedPayments): Promise<void> {
    try {
      await writeSavedPayments(this.ctx.config.dataDir, next);
    } catch (error) {
      this.ctx.log.error(
        { code: (error as NodeJS.ErrnoException).code },
        'Could not save the payment settings',
      );
      throw new AppError('INTERNAL', 'The payment settings could not be written to disk.');
    }
  }

  /**
   * Sells a course on its own at a one-time price, or stops (`priceId` null). The price is asked
   * of Stripe first: a recurring, archived, free or missing one is refused and nothing changes.
   */
  async setCoursePrice(courseId: string, priceId: string | null): Promise<PaymentsSettingsView> {
    const current = await this.effective();
    if (priceId) {
      if (!current.secretKey) throw new AppError('VALIDATION', NOT_CONNECTED);
      await refuseUnfitPrices(
        this.makeProvider({ secretKey: current.secretKey, apiBase: current.apiBase }),
        [priceId],
        'course',
        modeOfKey(current.secretKey),
      );
    }
    return this.ctx.leases.run(SAVE_LEASE, SAVE_BUSY, async () => {
      const before = await this.saved();
      const coursePrices = { ...before.coursePrices };
      if (priceId) coursePrices[courseId] = priceId;
      else delete coursePrices[courseId];
      const next: SavedPayments = { ...before, coursePrices };
      if (Object.keys(coursePrices).length === 0) delete next.coursePrices;
      await this.write(next);
      return this.view();
    });
  }

  /** The owner's prices in Stripe, for the console's list; refused until a key is set. */
  async prices(): Promise<{ mode: 'test' | 'live'; prices: PriceListing[] }> {
    const settings = await this.effective();
    const provider = this.providerFor(settings);
    if (!settings.secretKey || !provider) throw new AppError('VALIDATION', NOT_CONNECTED);
    try {
      return { mode: modeOfKey(settings.secretKey), prices: await provider.listPrices() };
    } catch (error) {
      const message = (error as Error).message;
      throw new AppError('UNAVAILABLE', `Your prices could not be read from Stripe: ${message}`);
    }
  }

  /**
   * Asks Stripe whether it accepts the key and whether the prices exist and recur: with what is
   * typed in the form where given (tested before it is saved), else with what is in force.
   */
  async test(body: z.output<typeof paymentsTestBody>): Promise<PaymentsTestResult> {
    const settings = await this.effective();
    const secretKey = this.fixed('secretKey') ? settings.secretKey : (body.secretKey ?? settings.secretKey);
    const priceIds = this.fixed('priceIds') ? settings.priceIds : (body.priceIds ?? settings.priceIds);
    // What is typed in the form counts, as for the key and the prices.
    const webhookSecret = this.fixed('webhookSecret')
      ? settings.webhookSecret
      : (body.webhookSecret ?? settings.webhookSecret);
    const checks: PaymentsCheck[] = [];
    if (!secretKey) {
      checks.push({
        label: 'Secret key',
        outcome: 'failed',
        detail: 'No secret key is set: paste it above, then Test.',
      });
    } else {
      const provider = this.makeProvider({ secretKey, apiBase: settings.apiBase });
      checks.push(...(await provider.test(priceIds)));
    }
    if (secretKey && priceIds.length === 0)
      checks.push({
        label: 'Prices',
        outcome: 'failed',
        detail: 'No price is set: members need at least one recurring price to subscribe to.',
      });
    checks.push(
      webhookSecret
        ? {
            label: 'Webhook signing secret',
            outcome: 'ok',
            detail:
              'Set. Stripe’s events are accepted only with a valid signature; send a test event from Stripe to check it.',
          }
        : {
            label: 'Webhook signing secret',
            outcome: 'failed',
            detail: 'Not set: without it no payment can be confirmed, so members would pay and stay free.',
          },
    );
    if (settings.apiBase)
      checks.push({
        label: 'Stripe address',
        outcome: 'warning',
        detail: `STRIPE_API_BASE sends the site's calls to ${settings.apiBase.url}, not to Stripe.`,
      });
    return { ok: checks.every((check) => check.outcome !== 'failed'), checks };
  }
}
