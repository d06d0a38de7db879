import type { SortOrder, UserSortField } from '@common/schemas/admin-users';
import { SelectField } from '../../../components/ui/select-field';
import { SORTABLE_COLUMNS } from '../sort-columns';

// Newest first is the list's default order, so it leads the picker.
const FIELDS: ReadonlyArray<{ value: UserSortField; label: string }> = [
  { value: 'createdAt', label: 'Date joined' },
  ...SORTABLE_COLUMNS.filter(({ field }) => field !== 'createdAt').map(({ field, label }) => ({
    value: field,
    label,
  })),
];

export interface MobileSortProps {
  sortBy: UserSortField;
  sortOrder: SortOrder;
  onChange: (sortBy: UserSortField, sortOrder: SortOrder) => void;
}

/** On a phone the table's headers are hidden (rows become cards), so sorting is chosen here. */
export function MobileSort({ sortBy, sortOrder, onChange }: MobileSortProps) {
  return (
    <div className="mt-4 flex items-end gap-2 md:hidden">
      <SelectField
        label="Sort by"
        className="flex-1"
        options={FIELDS}
        value={sortBy}
        onChange={(e) => onChange(e.target.value as UserSortField, sortOrder)}
      />
      <button
        type="button"
        onClick={() => onChange(sortBy, sortOrder === 'asc' ? 'desc' : 'asc')}
        className="rounded-lg border border-white/15 bg-white/5 px-3 py-2.5 text-sm text-stone-200 hover:bg-white/10"
      >
        {sortOrder === 'asc' ? '↑ Ascending' : '↓ Descending'}
      </button>
    </div>
  );
}
