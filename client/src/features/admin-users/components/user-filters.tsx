import type { BillingFilter } from '@common/schemas/payments';
import { SelectField } from '../../../components/ui/select-field';
import { INPUT_CLASS } from '../../../components/ui/text-field';
import { BILLING_FILTER_OPTIONS } from '../../payments/admin/billing-note';

/** What the list shows: a search by name or email, and the payments filter. */
export function UserFilters({
  searchText,
  onSearchText,
  billing,
  onBilling,
}: {
  searchText: string;
  onSearchText: (text: string) => void;
  billing: BillingFilter | undefined;
  onBilling: (billing: BillingFilter | undefined) => void;
}) {
  return (
    <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-start">
      <div className="w-full max-w-md">
        <label htmlFor="user-search" className="mb-1.5 block text-sm font-medium text-stone-300">
          Search
        </label>
        <input
          id="user-search"
          type="search"
          placeholder="Search by name or email..."
          value={searchText}
          onChange={(e) => onSearchText(e.target.value)}
          className={INPUT_CLASS}
        />
      </div>
      <SelectField
        className="w-full sm:w-64"
        label="Show"
        options={BILLING_FILTER_OPTIONS}
        value={billing ?? ''}
        onChange={(e) => onBilling((e.target.value || undefined) as BillingFilter | undefined)}
      />
    </div>
  );
}
