import { z } from 'zod';
import { RETURN_PATH } from '../next-page';
import type { PaymentPlan, PriceListing } from '../payment-plans';
import type { BillingDiscount, SubscriptionStatus, TierSource } from './billing';
import type { Tier } from './user';

/**
 * Paid membership through a payment provider (Stripe): the console's settings, what a member
 * sees of their billing, and the calls that start a checkout or open the billing portal. Seams, in
 * order: the settings' fields and schemas (keys, prices, trial, course prices), the console's
 * settings view, price list and Test, the member's billing, the checkouts and portal, the
 * Dashboard's overview, the webhook's answer.
 */

/** The settings the owner gives; each can instead come from an environment variable. */
export const PAYMENTS_FIELDS = ['secretKey', 'webhookSecret', 'priceIds'] as const;
export type PaymentsField = (typeof PAYMENTS_FIELDS)[number];
/** The two secrets, which are never sent back. */
export const PAYMENTS_SECRETS = ['secretKey', 'webhookSecret'] as const;
export type PaymentsSecret = (typeof PAYMENTS_SECRETS)[number];

/** A member can choose among this many prices (a monthly and a yearly one, say). */
export const MAX_PRICES = 4;

/** Stripe's secret (`sk_`) and restricted (`rk_`) keys; a publishable key (`pk_`) cannot act on the server. */
const SECRET_KEY = /^(?:sk|rk)_(?:test|live)_[A-Za-z0-9_]{8,250}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{8,250}$/;
/** `price_…`, or the id an older account gave a plan by hand, which Checkout takes as a price too. */
const PRICE_ID = /^[A-Za-z0-9_-]{3,100}$/;

export const secretKeySchema = z
  .string({ error: 'The secret key must be text' })
  .trim()
  .refine((value) => !value.startsWith('pk_'), {
    message:
      'That is the publishable key (pk_…). The site needs the secret key or a restricted key (sk_… or rk_…).',
  })
  .refine((value) => SECRET_KEY.test(value), {
    message:
      'The secret key starts with sk_test_, sk_live_, rk_test_ or rk_live_ (Stripe: Developers → API keys).',
  });

export const webhookSecretSchema = z
  .string({ error: 'The webhook signing secret must be text' })
  .trim()
  .refine((value) => WEBHOOK_SECRET.test(value), {
    message: 'The webhook signing secret starts with whsec_ (Stripe: Developers → Webhooks → your endpoint).',
  });

export const priceIdsSchema = z
  .array(
    z
      .string({ error: 'Each price ID must be text' })
      .trim()
      .regex(PRICE_ID, 'A price ID looks like price_1AbC…: letters, digits, _ and - only'),
  )
  .max(MAX_PRICES, `At most ${MAX_PRICES} prices`)
  .transform((ids) => [...new Set(ids.filter(Boolean))]);

/** Price IDs as the owner types them or the environment gives them: separated by commas or spaces. */
export function splitPriceIds(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter(Boolean);
}

/** One price ID, as `priceIdsSchema` checks each. */
export const priceIdSchema = z
  .string({ error: 'A price ID must be text' })
  .trim()
  .regex(PRICE_ID, 'A price ID looks like price_1AbC…: letters, digits, _ and - only');

/** Stripe's own limit on a subscription's trial. */
export const MAX_TRIAL_DAYS = 730;
const TRIAL_DAYS_MESSAGE = `A free trial lasts 1 to ${MAX_TRIAL_DAYS} days (Stripe’s limit); leave it empty for none.`;
export const trialDaysSchema = z
  .number({ error: TRIAL_DAYS_MESSAGE })
  .refine(Number.isInteger, TRIAL_DAYS_MESSAGE)
  .refine((days) => days >= 1, TRIAL_DAYS_MESSAGE)
  .refine((days) => days <= MAX_TRIAL_DAYS, TRIAL_DAYS_MESSAGE);

/** A course sold on its own: its id and the one-time price it is bought at. */
const COURSE_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const coursePricesSchema = z.record(z.string().regex(COURSE_ID, 'Unknown course'), priceIdSchema);

/** '' keeps what is saved (the secrets are never sent back to be sent again). */
const keepIfBlank = <S extends z.ZodType>(schema: S) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  );

/** POST /api/admin/payments/settings. Fields left out or blank keep their value; `remove` forgets a secret. */
export const paymentsSettingsBody = z.object({
  secretKey: keepIfBlank(secretKeySchema),
  webhookSecret: keepIfBlank(webhookSecretSchema),
  priceIds: priceIdsSchema.optional(),
  remove: z.array(z.enum(PAYMENTS_SECRETS)).max(2).optional(),
  /** Checkout takes the promotion codes the owner makes in Stripe. */
  promotionCodes: z.boolean({ error: 'promotionCodes is true or false' }).optional(),
  /** Days of free trial before the first payment; null: none. */
  trialDays: trialDaysSchema.nullable().optional(),
  /** The trial starts without a card; with none added by its end, the subscription is cancelled. */
  trialWithoutCard: z.boolean({ error: 'trialWithoutCard is true or false' }).optional(),
});
export type PaymentsSettingsBody = z.input<typeof paymentsSettingsBody>;

/** POST /api/admin/payments/test: what is typed in the form, tested before it is saved (else the saved values). */
export const paymentsTestBody = z.object({
  secretKey: keepIfBlank(secretKeySchema),
  webhookSecret: keepIfBlank(webhookSecretSchema),
  priceIds: priceIdsSchema.optional(),
});
export type PaymentsTestBody = z.input<typeof paymentsTestBody>;

/** PUT /api/admin/payments/course-prices/:courseId: the one-time price a course is sold at; null: not sold on its own. */
export const coursePriceBody = z.object({ priceId: priceIdSchema.nullable() });
export type CoursePriceBody = z.input<typeof coursePriceBody>;

/** GET /api/admin/payments/prices: the owner's prices in Stripe, for picking rather than pasting. */
export interface PriceListResponse {
  success: true;
  data: { mode: 'test' | 'live'; prices: PriceListing[] };
}

/** What the console shows of a secret: whether it is set, and its last four characters. */
export interface SecretState {
  set: boolean;
  last4: string | null;
}

export interface PaymentsSettingsView {
  secretKey: SecretState;
  webhookSecret: SecretState;
  priceIds: string[];
  /** Test or live mode, from the key's prefix; null without a key. */
  mode: 'test' | 'live' | null;
  /** Key, signing secret and at least one price: members can upgrade. */
  ready: boolean;
  /** Fields fixed by an environment variable (read-only in the console), with the variable's name. */
  fixedByEnvironment: Partial<Record<PaymentsField, string>>;
  /** The address to give Stripe for its events. */
  webhookUrl: string;
  /** The events to register at that address. */
  webhookEvents: readonly string[];
  promotionCodes: boolean;
  trialDays: number | null;
  trialWithoutCard: boolean;
  /** Courses sold on their own: course id → one-time price id. */
  coursePrices: Record<string, string>;
  /** Set when STRIPE_API_BASE sends the site's calls somewhere other than Stripe (a local stand-in). */
  apiBase: string | null;
}

export interface PaymentsSettingsResponse {
  success: true;
  data: PaymentsSettingsView;
}

/** One line of the Test: what was checked, whether it passed, and what it means in plain words. */
export interface PaymentsCheck {
  label: string;
  /** 'warning': it works, but something needs a look. */
  outcome: 'ok' | 'warning' | 'failed';
  detail: string;
}

export interface PaymentsTestResult {
  ok: boolean;
  checks: PaymentsCheck[];
}

export interface PaymentsTestResponse {
  success: true;
  data: PaymentsTestResult;
}

/** Filters of the console's user list: members with a live subscription, failing payments, paid by hand. */
export const BILLING_FILTERS = ['paying', 'past_due', 'complimentary'] as const;
export type BillingFilter = (typeof BILLING_FILTERS)[number];

export interface PaymentPlansResponse {
  success: true;
  /** Members can upgrade now. */
  available: boolean;
  plans: PaymentPlan[];
}

/** GET /api/payments/me: the signed-in member's own tier and billing. */
export interface MemberBilling {
  tier: Tier;
  /** Members can upgrade through the provider now. */
  available: boolean;
  tierSource: TierSource | null;
  paidSince: string | null;
  subscription: {
    status: SubscriptionStatus;
    plan: PaymentPlan | null;
    currentPeriodEnd: string | null;
    cancelAtPeriodEnd: boolean;
    cancelAt: string | null;
    endedAt: string | null;
    /** A free trial: when it ends (the first payment, or the end when no card is given). */
    trialEnd: string | null;
    /** The trial started without a card: it ends the subscription unless one is added by then. */
    trialNeedsCard: boolean;
    /** A promotion code's discount, while it applies. */
    discount: BillingDiscount | null;
  } | null;
  /** The member has a customer at the provider: the billing portal can open. */
  canManageBilling: boolean;
  /** Courses the member bought on their own, open whatever their tier (none refunded). */
  boughtCourseIds: string[];
}

export interface MemberBillingResponse {
  success: true;
  data: MemberBilling;
}

const returnPath = z
  .string({ error: 'returnPath must be text' })
  .regex(RETURN_PATH, 'returnPath must be /dashboard, /account or a page under /courses');

export const checkoutBody = z.object({
  priceId: z.string().trim().regex(PRICE_ID, 'Unknown price').optional(),
  returnPath: returnPath.default('/dashboard'),
});
export type CheckoutBody = z.input<typeof checkoutBody>;

export const portalBody = z.object({ returnPath: returnPath.default('/account') });

/** POST /api/payments/courses/:courseId/checkout: buying one course; back to its page. */
export const courseCheckoutBody = z.object({ returnPath });
export type CourseCheckoutBody = z.input<typeof courseCheckoutBody>;

/** GET /api/payments/courses/:courseId: whether the course is sold on its own now, and at what price. */
export interface CourseOfferResponse {
  success: true;
  data: { available: boolean; price: PaymentPlan | null };
}
export type PortalBody = z.input<typeof portalBody>;

/**
 * Added to the return address by the checkout: `?checkout=success` or `?checkout=cancelled`, and
 * `?checkout=bought` after paying for a course on its own.
 */
export const CHECKOUT_RETURN_PARAM = 'checkout';

export interface RedirectResponse {
  success: true;
  /** The provider's page (Checkout or the Customer Portal). */
  url: string;
}

/** The console Dashboard's money card. */
export interface PaymentsOverview {
  ready: boolean;
  mode: 'test' | 'live' | null;
  /** Members with a live subscription (active, trial or retrying). */
  paying: number;
  pastDue: number;
  /** Members whose last payment failed, most recent first (at most a handful). */
  failing: Array<{
    _id: string;
    name: string;
    email: string;
    paymentFailedAt: string | null;
    currentPeriodEnd: string | null;
  }>;
  /**
   * Members with more than one live subscription (a second checkout slipped through): Stripe may
   * charge them twice. The owner refunds and cancels the extra one in Stripe's dashboard.
   */
  /**
   * Stripe's events received but not applied (Stripe could not be asked about them: unreachable,
   * or the key lacks a permission). Stripe sends them again; this empties once they are applied.
   * `reason`: the latest failure in plain words; `since`: the oldest.
   */
  notApplied: { count: number; reason: string | null; since: string | null };
  subscribedTwice: Array<{
    _id: string;
    name: string;
    email: string;
    customerId: string | null;
    subscriptions: number;
  }>;
}

export interface PaymentsOverviewResponse {
  success: true;
  data: PaymentsOverview;
}

/** What the webhook did with an event: applied it, saw it before, or had nothing to do with it. */
export type WebhookOutcome = { handled: true } | { duplicate: true } | { ignored: string };

/** POST /api/payments/webhook: Stripe reads only the status; the body says what was done, for its dashboard. */
export type WebhookAnswer = { received: true } & WebhookOutcome;
