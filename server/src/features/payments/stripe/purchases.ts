import type Stripe from 'stripe';
import type { CourseCheckoutInput, PaymentState } from '../payment-provider';
import { isMissing, providerError } from './errors';

/* A course bought on its own: its one-off Checkout, and its payment read as it is now. */

/** The parameters of a course's Checkout: payment mode, the course named where the webhook reads it. */
export function courseCheckoutParams(
  input: CourseCheckoutInput,
  customerId: string,
): Stripe.Checkout.SessionCreateParams {
  const metadata = { userId: input.userId, courseId: input.courseId, priceId: input.priceId };
  return {
    mode: 'payment',
    customer: customerId,
    client_reference_id: input.userId,
    line_items: [{ price: input.priceId, quantity: 1 }],
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    metadata,
    // Named on the payment too, so the owner sees in Stripe's dashboard what a payment was for.
    payment_intent_data: { metadata },
  };
}

/** The payment as Stripe holds it now, with the charge that took it (refunded or not). */
export async function readPayment(client: Stripe, id: string): Promise<PaymentState | null> {
  try {
    const intent = await client.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
    const charge =
      intent.latest_charge && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    return {
      id: intent.id,
      paid: intent.status === 'succeeded',
      refunded: Boolean(charge?.refunded),
      amount: typeof intent.amount === 'number' ? intent.amount : null,
      currency: intent.currency ?? null,
    };
  } catch (error) {
    if (isMissing(error)) return null;
    throw providerError(error);
  }
}
