import type { UpgradeOfferSettings } from '@common/schemas/course-views';
import type { CHECKOUT_RETURN_PARAM } from '@common/schemas/payments';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useHydrated } from '../../../lib/use-hydrated';
import { UpgradeOffer } from './upgrade-offer';

// Paying for the paid tier brings react-query and the payments code: loaded only when needed.
const CourseUpgradeOffer = lazy(() =>
  import('../course-upgrade').then((m) => ({ default: m.CourseUpgradeOffer })),
);
const CourseCheckoutReturn = lazy(() =>
  import('../course-upgrade').then((m) => ({ default: m.CourseCheckoutReturn })),
);

/**
 * What a signed-in free member sees at a paid lock on a course or lesson page: the owner's offer
 * at once, and with the Upgrade button (when Stripe is connected) as soon as its code is here.
 */
export function MemberOffer(props: {
  offer: UpgradeOfferSettings | null;
  returnPath: string;
  /** The owner previewing as a free member: the same offer and buttons, which start nothing. */
  preview?: boolean;
  /** On a course's page: Buy, when the course is sold on its own. */
  courseId?: string;
}) {
  return (
    <Suspense fallback={<UpgradeOffer offer={props.offer} />}>
      <CourseUpgradeOffer {...props} />
    </Suspense>
  );
}

/** "Your payment is being confirmed", then "Payment confirmed" (calling `onPaid`), or "Checkout cancelled". */
export function CheckoutReturn({ onPaid, courseId }: { onPaid: () => void; courseId?: string }) {
  return (
    <div className="mb-4">
      <Suspense fallback={null}>
        <CourseCheckoutReturn onPaid={onPaid} courseId={courseId} />
      </Suspense>
    </div>
  );
}

// The shared name, checked by the compiler: importing its value would bring the request schemas
// (and zod) into the public course page.
const RETURN_PARAM: typeof CHECKOUT_RETURN_PARAM = 'checkout';

/**
 * Whether the page was opened on the way back from Stripe Checkout (`?checkout=…`). Read once:
 * the notice takes the parameter away when there is nothing left to wait for, and stays. False
 * while React takes over a pre-rendered page, which has no notice.
 */
export function useCheckoutReturn(): boolean {
  const [params] = useSearchParams();
  const [arrivedWith] = useState(() => params.has(RETURN_PARAM));
  return useHydrated() && arrivedWith;
}
