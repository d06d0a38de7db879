import type {
  PaymentsOverview,
  PaymentsOverviewResponse,
  PaymentsSettingsBody,
  PaymentsSettingsResponse,
  PaymentsSettingsView,
  PaymentsTestBody,
  PaymentsTestResponse,
  PaymentsTestResult,
  PriceListResponse,
} from '@common/schemas/payments';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { paymentsKeys } from '../api';

/** The console's calls: the Payments panel's settings and test, the overview's money card. */
export const adminPaymentsKeys = {
  settings: ['admin', 'payments', 'settings'] as const,
  overview: ['admin', 'payments', 'overview'] as const,
  prices: ['admin', 'payments', 'prices'] as const,
};

export function usePaymentsSettings() {
  // Not refetched on focus: a refetch must never look like it undid what is being typed.
  return useQuery({
    queryKey: adminPaymentsKeys.settings,
    queryFn: async ({ signal }): Promise<PaymentsSettingsView> =>
      (await api<PaymentsSettingsResponse>('/api/admin/payments/settings', { auth: true, signal })).data,
    refetchOnWindowFocus: false,
  });
}

/** Saving asks for the password again (the api client opens the dialog when the server wants it). */
export function useSavePaymentsSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: PaymentsSettingsBody): Promise<PaymentsSettingsView> =>
      (
        await api<PaymentsSettingsResponse>('/api/admin/payments/settings', {
          method: 'POST',
          body,
          auth: true,
        })
      ).data,
    onSuccess: (view) => {
      queryClient.setQueryData(adminPaymentsKeys.settings, view);
      void queryClient.invalidateQueries({ queryKey: adminPaymentsKeys.prices });
      void queryClient.invalidateQueries({ queryKey: adminPaymentsKeys.overview });
      void queryClient.invalidateQueries({ queryKey: paymentsKeys.plans });
    },
  });
}

export function useTestPayments() {
  return useMutation({
    mutationFn: async (body: PaymentsTestBody): Promise<PaymentsTestResult> =>
      (await api<PaymentsTestResponse>('/api/admin/payments/test', { method: 'POST', body, auth: true }))
        .data,
  });
}

/** The console overview's money card, refreshed with the user counts. */
export function usePaymentsOverview(refetchMs: number) {
  return useQuery({
    queryKey: adminPaymentsKeys.overview,
    queryFn: async ({ signal }): Promise<PaymentsOverview> =>
      (await api<PaymentsOverviewResponse>('/api/admin/payments/overview', { auth: true, signal })).data,
    refetchInterval: refetchMs,
  });
}

/** The owner's prices in Stripe (only once a key is set): picked in the Payments panel, never pasted. */
export function usePriceList(enabled: boolean) {
  return useQuery({
    queryKey: adminPaymentsKeys.prices,
    queryFn: async ({ signal }) =>
      (await api<PriceListResponse>('/api/admin/payments/prices', { auth: true, signal })).data,
    enabled,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** Sells a course on its own at a one-time price, or stops (null); answers the settings as saved. */
export function useSetCoursePrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ courseId, priceId }: { courseId: string; priceId: string | null }) =>
      (
        await api<PaymentsSettingsResponse>(
          `/api/admin/payments/course-prices/${encodeURIComponent(courseId)}`,
          {
            method: 'PUT',
            body: { priceId },
            auth: true,
          },
        )
      ).data,
    onSuccess: (view) => queryClient.setQueryData(adminPaymentsKeys.settings, view),
  });
}
