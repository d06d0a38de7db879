import { describePlan } from '@common/payment-plans';
import type { PaymentsSettingsView } from '@common/schemas/payments';
import { useNotices } from '../../../components/console/notices';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/select-field';
import { useCourseList } from '../../courses/admin/api';
import { usePriceList, useSetCoursePrice } from './api';

const NOT_SOLD = '';

/**
 * Courses sold on their own: each paid course may be bought once at one of the owner's one-time
 * prices in Stripe, picked here (saved at once). A buyer opens it whatever their tier, until a
 * full refund.
 */
export function CoursePrices({ view }: { view: PaymentsSettingsView }) {
  const connected = view.secretKey.set;
  const courses = useCourseList();
  const prices = usePriceList(connected);
  const setPrice = useSetCoursePrice();
  const notices = useNotices();
  const paidCourses = (courses.data ?? []).filter((course) => course.access === 'paid');
  const oneTime = (prices.data?.prices ?? []).filter((price) => price.kind === 'one-time');

  async function choose(courseId: string, title: string, priceId: string) {
    try {
      await setPrice.mutateAsync({ courseId, priceId: priceId || null });
      const price = oneTime.find((one) => one.id === priceId);
      notices.success(
        price
          ? `“${title}” is sold on its own at ${describePlan(price, 'en-GB')}.`
          : `“${title}” is no longer sold on its own.`,
      );
    } catch (error) {
      notices.error(`The price was not set: ${(error as Error).message}`);
    }
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Courses sold on their own</h2>
      <p className="mt-1 text-sm text-stone-300">
        A member may buy one paid course once, without the Architect Tier: pick a one-time price for it (make
        one on a product’s page in Stripe, “One-off”). A full refund in Stripe closes the course to them
        again.
      </p>
      {!connected ? (
        <p className="mt-4 text-sm text-stone-400">Save the secret key to sell a course on its own.</p>
      ) : courses.isError || prices.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-300">
          {((courses.error ?? prices.error) as Error).message}
        </p>
      ) : !courses.data || !prices.data ? (
        <p className="mt-4 text-sm text-stone-400">Loading courses and prices…</p>
      ) : paidCourses.length === 0 ? (
        <p className="mt-4 text-sm text-stone-300">No course is for paid members yet.</p>
      ) : (
        <ul className="mt-4 divide-y divide-white/10">
          {paidCourses.map((course) => {
            const current = view.coursePrices[course.id] ?? NOT_SOLD;
            const options = [
              { value: NOT_SOLD, label: 'Not sold on its own' },
              ...oneTime
                .filter((price) => !price.archived || price.id === current)
                .map((price) => ({
                  value: price.id,
                  label: `${describePlan(price, 'en-GB')}${price.product ? ` · ${price.product}` : ''}${price.archived ? ' (archived)' : ''}`,
                })),
            ];
            if (current && !options.some((option) => option.value === current))
              options.push({ value: current, label: `${current} (not found in Stripe)` });
            return (
              <li key={course.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-end sm:gap-4">
                <p className="min-w-0 flex-1 text-stone-100 sm:pb-2.5">
                  {course.title}
                  {!course.published && <span className="text-stone-400"> · Draft</span>}
                </p>
                <SelectField
                  label={`Price of ${course.title}`}
                  className="sm:w-80"
                  value={current}
                  disabled={setPrice.isPending}
                  options={options}
                  onChange={(event) => void choose(course.id, course.title, event.target.value)}
                />
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
