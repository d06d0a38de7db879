import type { UpgradeOfferSettings } from '@common/schemas/course-views';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../../lib/query-client';
import { BuyCourse } from '../payments/components/buy-course';
import { CheckoutReturnNotice } from '../payments/components/checkout-return-notice';
import { UpgradeButton, useUpgradeShown } from '../payments/components/upgrade-button';
import { UpgradeOffer } from './components/upgrade-offer';

/*
 * The course and lesson pages' part of paying for the paid tier, a chunk of its own (loaded by
 * components/member-offer.tsx): the course page is public and loads no react-query, and neither
 * page should carry the payments code for everyone. It is downloaded only when a signed-in free
 * member meets a paid lock, or comes back from Stripe. It uses the app's one react-query cache,
 * so the dashboard and account pages find the plans and the member's tier already read.
 */

/**
 * The owner's offer, with the Upgrade button once the server says members can pay (`available`
 * of `/api/payments/plans`, which the dashboard's button reads too) and no payment is being
 * confirmed; without Stripe, the owner's offer alone. Stripe's page sends the member back to
 * `returnPath`.
 */
export function CourseUpgradeOffer(props: {
  offer: UpgradeOfferSettings | null;
  returnPath: string;
  preview?: boolean;
  /** A course page: the course may be sold on its own too (Buy). */
  courseId?: string;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <OfferWithButton {...props} />
    </QueryClientProvider>
  );
}

function OfferWithButton({
  offer,
  returnPath,
  preview,
  courseId,
}: {
  offer: UpgradeOfferSettings | null;
  returnPath: string;
  preview?: boolean;
  courseId?: string;
}) {
  const shown = useUpgradeShown();
  return (
    <>
      <UpgradeOffer offer={offer}>
        {shown ? <UpgradeButton returnPath={returnPath} preview={preview} /> : null}
      </UpgradeOffer>
      {courseId && <BuyCourse courseId={courseId} returnPath={returnPath} preview={preview} />}
    </>
  );
}

/**
 * How the checkout went; `onPaid` reads the course or lesson again once Stripe confirmed the
 * payment (for the paid tier, or for `courseId` bought on its own).
 */
export function CourseCheckoutReturn({ onPaid, courseId }: { onPaid: () => void; courseId?: string }) {
  return (
    <QueryClientProvider client={queryClient}>
      <CheckoutReturnNotice onPaid={onPaid} courseId={courseId} />
    </QueryClientProvider>
  );
}
