import { describePlan } from '@common/payment-plans';
import type { WebhookOutcome } from '@common/schemas/payments';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { DocChanges } from '../../store/store';
import type { ActivityLog } from '../activity/activity.service';
import type { CoursesRepository } from '../courses/courses.repository';
import { BILLING_FIELDS, type CoursePurchase } from '../users/billing-record';
import type { UserDoc, UsersRepository } from '../users/users.repository';
import { STRIPE_ACTOR } from './membership-tier';
import type { PaymentEvent, PaymentProvider, PaymentState } from './payment-provider';

export interface CoursePurchasesDeps {
  users: UsersRepository;
  courses: Pick<CoursesRepository, 'findCourse'>;
  activity: Pick<ActivityLog, 'record'>;
  log: FastifyBaseLogger;
}

const priceWords = (payment: PaymentState) =>
  payment.amount !== null && payment.currency
    ? describePlan({
        id: payment.id,
        name: null,
        amount: payment.amount,
        currency: payment.currency,
        interval: null,
        intervalCount: 1,
      })
    : 'paid';

/**
 * Stripe's word on a course bought on its own. A finished checkout in payment mode counts only if
 * the site opened it for the member it names (its session recorded on them), and only then is its
 * metadata (the course) believed. Each event is a prompt to read the payment as it is now, so a
 * refund arriving before the checkout's event still ends with the course closed. A full refund
 * (`charge.refunded`) closes the course again; a partial one leaves it open.
 */
export class CoursePurchases {
  constructor(private readonly deps: CoursePurchasesDeps) {}

  async apply(
    event: PaymentEvent,
    provider: PaymentProvider,
    request: FastifyRequest,
  ): Promise<WebhookOutcome> {
    return event.kind === 'purchase-completed'
      ? this.bought(event, provider, request)
      : this.refunded(event, provider, request);
  }

  private async bought(
    event: PaymentEvent,
    provider: PaymentProvider,
    request: FastifyRequest,
  ): Promise<WebhookOutcome> {
    const user = event.userId ? await this.deps.users.findById(event.userId) : null;
    const opened =
      event.checkoutSessionId && user?.billing?.checkoutSessionIds?.includes(event.checkoutSessionId);
    if (!user || !opened || (event.customerId && user.billing?.customerId !== event.customerId)) {
      this.deps.log.warn({ eventId: event.id }, 'Course checkout the site did not open: ignored');
      return { ignored: 'not a checkout the site opened' };
    }
    if (!event.paymentId || !event.courseId) return { ignored: 'no course or payment named' };
    const payment = await provider.readPayment(event.paymentId);
    if (!payment?.paid) return { ignored: 'the payment is not finished' };
    const known = user.purchases?.find((purchase) => purchase.paymentId === payment.id);
    if (known) return this.close(user, known, payment, event, request);
    const course = await this.deps.courses.findCourse(event.courseId);
    const purchase: CoursePurchase = {
      courseId: event.courseId,
      courseTitle: course?.title ?? event.courseId,
      priceId: event.priceId ?? null,
      checkoutSessionId: event.checkoutSessionId!,
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      boughtAt: event.created,
      // Refunded before this event arrived (events come in any order): recorded, but closed.
      refundedAt: payment.refunded ? new Date() : null,
    };
    await this.write(user, [...(user.purchases ?? []), purchase]);
    await this.deps.activity.record(request, {
      kind: 'payments.course-bought',
      summary: `${user.email} bought “${purchase.courseTitle}” (${priceWords(payment)})${
        purchase.refundedAt ? ', already refunded in full' : ''
      }: Stripe ${event.type} (${event.id})`,
      after: { courseId: purchase.courseId, paymentId: payment.id, refunded: Boolean(purchase.refundedAt) },
      actor: STRIPE_ACTOR,
    });
    return { handled: true };
  }

  private async refunded(
    event: PaymentEvent,
    provider: PaymentProvider,
    request: FastifyRequest,
  ): Promise<WebhookOutcome> {
    if (!event.paymentId || !event.customerId) return { ignored: 'no payment named' };
    const [user] = await this.deps.users.find(
      { [BILLING_FIELDS.customerId]: event.customerId },
      { limit: 1 },
    );
    const purchase = user?.purchases?.find((one) => one.paymentId === event.paymentId);
    // The checkout's own event, when it comes, reads the payment and finds it refunded.
    if (!user || !purchase) return { ignored: 'not a payment for a course bought on this site (yet)' };
    const payment = await provider.readPayment(event.paymentId);
    if (!payment) return { ignored: 'no such payment at Stripe' };
    return this.close(user, purchase, payment, event, request);
  }

  /** A purchase whose payment is now refunded in full closes its course; anything else changes nothing. */
  private async close(
    user: UserDoc,
    purchase: CoursePurchase,
    payment: PaymentState,
    event: PaymentEvent,
    request: FastifyRequest,
  ): Promise<WebhookOutcome> {
    if (!payment.refunded || purchase.refundedAt) return { handled: true };
    const refundedAt = new Date();
    await this.write(
      user,
      (user.purchases ?? []).map((one) =>
        one.paymentId === purchase.paymentId ? { ...one, refundedAt } : one,
      ),
    );
    await this.deps.activity.record(request, {
      kind: 'payments.course-refunded',
      summary: `${user.email} was refunded for “${purchase.courseTitle}”, which is closed to them again: Stripe ${event.type} (${event.id})`,
      before: { courseId: purchase.courseId, refunded: false },
      after: { courseId: purchase.courseId, refunded: true },
      actor: STRIPE_ACTOR,
    });
    return { handled: true };
  }

  private async write(user: UserDoc, purchases: CoursePurchase[]): Promise<void> {
    await this.deps.users.update(user._id, { purchases } as DocChanges<UserDoc>);
  }
}
