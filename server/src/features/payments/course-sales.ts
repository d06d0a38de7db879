import type { PaymentPlan } from '@common/payment-plans';
import type { CoursePrice } from '@common/schemas/course-views';
import {
  CHECKOUT_RETURN_PARAM,
  type CourseCheckoutBody,
  type PaymentsSettingsView,
} from '@common/schemas/payments';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { DocChanges } from '../../store/store';
import type { ActivityLog } from '../activity/activity.service';
import type { CoursesRepository } from '../courses/courses.repository';
import type { SharedChanges } from '../shared-state/shared-changes';
import { BILLING_FIELDS, boughtCourseIds } from '../users/billing-record';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import { ProviderError } from './payment-provider';
import type { PaymentsSettings } from './payments-settings';

/** A course's price changes rarely; anyone may ask for it (the course page), so Stripe is asked at most this often. */
const OFFER_TTL_MS = 10 * 60 * 1000;
/** Checkout sessions remembered per member, as for the membership (payments.service.ts). */
const CHECKOUTS_KEPT = 10;

export interface CourseSalesDeps {
  settings: PaymentsSettings;
  users: UsersRepository;
  courses: Pick<CoursesRepository, 'findCourse'>;
  activity: Pick<ActivityLog, 'record'>;
  /** The public course pages show the price: a change of it rebuilds them on every process. */
  changes: Pick<SharedChanges, 'bump'>;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * Selling one course on its own: the owner sets a one-time price on it, its page shows the price
 * with Buy, and a member pays on Stripe's page (Checkout in payment mode). What Stripe then says
 * opens the course (course-purchases.ts).
 */
export class CourseSales {
  private offers = new Map<string, { price: PaymentPlan | null; until: number }>();

  constructor(private readonly deps: CourseSalesDeps) {}

  /** Whether the course is sold on its own now, and at what price (null when Stripe cannot say). */
  async offer(courseId: string): Promise<{ available: boolean; price: PaymentPlan | null }> {
    const settings = await this.deps.settings.effective();
    const priceId = settings.coursePrices[courseId];
    const provider = this.deps.settings.providerFor(settings);
    if (!priceId || !provider || !settings.webhookSecret) return { available: false, price: null };
    const hit = this.offers.get(priceId);
    if (hit && hit.until > Date.now()) return { available: hit.price !== null, price: hit.price };
    let price: PaymentPlan | null = null;
    try {
      const reading = await provider.readPrice(priceId);
      if ('price' in reading && !reading.price.archived) price = reading.price;
    } catch (error) {
      this.deps.log.warn(
        { ...(error as ProviderError).details },
        'Could not read a course price from Stripe',
      );
    }
    this.offers.set(priceId, { price, until: Date.now() + OFFER_TTL_MS });
    return { available: price !== null, price };
  }

  /**
   * The course price as a public page may show it: amount and currency, nothing else of billing
   * (no price id, no name); null when the course is not sold on its own now.
   */
  async coursePrice(courseId: string): Promise<CoursePrice | null> {
    const { price } = await this.offer(courseId);
    return price?.amount && price.currency ? { amount: price.amount, currency: price.currency } : null;
  }

  /** Starts Stripe Checkout for one course; answers the address of Stripe's page. */
  async checkout(user: UserDoc, courseId: string, body: CourseCheckoutBody): Promise<string> {
    const settings = await this.deps.settings.effective();
    const priceId = settings.coursePrices[courseId];
    const provider = this.deps.settings.providerFor(settings);
    const course = await this.deps.courses.findCourse(courseId);
    if (!course?.published || !priceId)
      throw new AppError('NOT_FOUND', 'This course is not sold on its own.');
    if (!provider || !settings.webhookSecret)
      throw new AppError(
        'UNAVAILABLE',
        'Buying a course is not available right now. Please try again later.',
      );
    if (boughtCourseIds(user.purchases).includes(courseId))
      throw new AppError('CONFLICT', 'You already own this course: it is open to you.');
    if (course.access !== 'paid' || user.membershipTier === 'paid' || user.role === 'admin')
      throw new AppError('CONFLICT', 'This course is already open to you: there is nothing to buy.');
    const back = `${this.deps.publicUrl}${body.returnPath}?${CHECKOUT_RETURN_PARAM}=`;
    try {
      const { url, customerId, sessionId } = await provider.createCourseCheckout({
        userId: user._id,
        email: user.email,
        name: user.name,
        customerId: user.billing?.customerId,
        priceId,
        courseId,
        successUrl: `${back}bought`,
        cancelUrl: `${back}cancelled`,
      });
      // Recorded before the member can pay: only a checkout the site opened for them is trusted.
      const sessions = [...(user.billing?.checkoutSessionIds ?? []), sessionId].slice(-CHECKOUTS_KEPT);
      await this.deps.users.update(user._id, {
        [BILLING_FIELDS.customerId]: customerId,
        [BILLING_FIELDS.checkoutSessionIds]: sessions,
      } as DocChanges<UserDoc>);
      return url;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.deps.log.warn({ ...error.details }, 'Could not start a Stripe checkout for a course');
      throw new AppError('UNAVAILABLE', error.message);
    }
  }

  /** The owner sells a course on its own at a one-time price, or stops (null); the Activity log says so. */
  async setPrice(
    courseId: string,
    priceId: string | null,
    request: FastifyRequest,
  ): Promise<PaymentsSettingsView> {
    const course = await this.deps.courses.findCourse(courseId);
    if (!course) throw new AppError('NOT_FOUND', 'Course not found.');
    const before = (await this.deps.settings.effective()).coursePrices[courseId] ?? null;
    const view = await this.deps.settings.setCoursePrice(courseId, priceId);
    this.offers.clear();
    if (before !== priceId) {
      await this.deps.changes.bump('courses');
      await this.deps.activity.record(request, {
        kind: 'payments.course-price',
        summary: priceId
          ? `“${course.title}” sold on its own at Stripe price ${priceId}`
          : `“${course.title}” no longer sold on its own`,
        before: { courseId, priceId: before },
        after: { courseId, priceId },
      });
    }
    return view;
  }
}
