import type { SortOrder, UserSortField } from '@common/schemas/admin-users';

export interface SortHeaderProps {
  field: UserSortField;
  label: string;
  sortBy: UserSortField;
  sortOrder: SortOrder;
  onSort: (field: UserSortField) => void;
}

/** A column header that sorts by its column; the arrow shows the direction of the active one. */
export function SortHeader({ field, label, sortBy, sortOrder, onSort }: SortHeaderProps) {
  const active = sortBy === field;
  return (
    <th
      scope="col"
      aria-sort={active ? (sortOrder === 'asc' ? 'ascending' : 'descending') : 'none'}
      className="px-3 py-3 text-left"
    >
      <button
        type="button"
        onClick={() => onSort(field)}
        className={`inline-flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wider transition-colors hover:text-white ${
          active ? 'text-accent-300' : 'text-stone-400'
        }`}
      >
        {label}
        <span aria-hidden="true" className={`w-3 text-sm ${active ? '' : 'opacity-0'}`}>
          {active && sortOrder === 'desc' ? '↓' : '↑'}
        </span>
      </button>
    </th>
  );
}
