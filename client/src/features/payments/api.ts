import type {
  CheckoutBody,
  CourseCheckoutBody,
  CourseOfferResponse,
  MemberBilling,
  MemberBillingResponse,
  PaymentPlansResponse,
  PortalBody,
  RedirectResponse,
} from '@common/schemas/payments';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export const paymentsKeys = {
  plans: ['payments', 'plans'] as const,
  me: ['payments', 'me'] as const,
  course: (courseId: string) => ['payments', 'course', courseId] as const,
};

/** Whether a course is sold on its own, and at what price (anyone may ask). */
export function useCourseOffer(courseId: string) {
  return useQuery({
    queryKey: paymentsKeys.course(courseId),
    queryFn: async ({ signal }) =>
      (await api<CourseOfferResponse>(`/api/payments/courses/${encodeURIComponent(courseId)}`, { signal }))
        .data,
    staleTime: 5 * 60 * 1000,
  });
}

/** Buys one course: sends the browser to Stripe's page; the promise stays pending while it goes. */
export function useBuyCourse() {
  return useMutation({
    mutationFn: async ({ courseId, ...body }: CourseCheckoutBody & { courseId: string }) => {
      const { url } = await api<RedirectResponse>(
        `/api/payments/courses/${encodeURIComponent(courseId)}/checkout`,
        { method: 'POST', body, auth: true },
      );
      window.location.assign(url);
      return new Promise<never>(() => {});
    },
  });
}

/** The prices on offer; `available` is false when the owner has not connected Stripe. */
export function usePaymentPlans(enabled = true) {
  return useQuery({
    queryKey: paymentsKeys.plans,
    queryFn: ({ signal }) => api<PaymentPlansResponse>('/api/payments/plans', { signal }),
    staleTime: 5 * 60 * 1000,
    enabled,
  });
}

/** While a payment is being confirmed, the member's tier is read this often. */
export const CONFIRM_POLL_MS = 2000;

/** The signed-in member's own tier and billing; read again every 2 s while `pollWhile` says so. */
export function useMemberBilling(pollWhile?: (billing: MemberBilling | undefined) => boolean) {
  return useQuery({
    queryKey: paymentsKeys.me,
    queryFn: async ({ signal }): Promise<MemberBilling> =>
      (await api<MemberBillingResponse>('/api/payments/me', { auth: true, signal })).data,
    refetchInterval: pollWhile ? (query) => (pollWhile(query.state.data) ? CONFIRM_POLL_MS : false) : false,
  });
}

/** Starts a checkout and sends the browser to Stripe's page; the promise stays pending while it goes. */
export function useCheckout() {
  return useMutation({
    mutationFn: async (body: CheckoutBody) => {
      const { url } = await api<RedirectResponse>('/api/payments/checkout', {
        method: 'POST',
        body,
        auth: true,
      });
      window.location.assign(url);
      return new Promise<never>(() => {});
    },
  });
}

/** Opens Stripe's Customer Portal in this tab. */
export function usePortal() {
  return useMutation({
    mutationFn: async (body: PortalBody) => {
      const { url } = await api<RedirectResponse>('/api/payments/portal', {
        method: 'POST',
        body,
        auth: true,
      });
      window.location.assign(url);
      return new Promise<never>(() => {});
    },
  });
}
