import type { SortOrder, UserSortField } from '@common/schemas/admin-users';
import { SORTABLE_COLUMNS } from '../sort-columns';
import { SortHeader } from './sort-header';

const PLAIN_HEADER = 'px-3 py-3 text-xs font-semibold uppercase tracking-wider text-stone-400';

/** The table's header row on wide screens: the sortable columns, Password when shown, Actions. */
export function UsersTableHead({
  sortBy,
  sortOrder,
  onSort,
  passwordColumn,
}: {
  sortBy: UserSortField;
  sortOrder: SortOrder;
  onSort: (field: UserSortField) => void;
  passwordColumn: boolean;
}) {
  return (
    <thead className="hidden bg-white/[0.03] md:table-header-group">
      <tr>
        {SORTABLE_COLUMNS.map((column) => (
          <SortHeader key={column.field} {...column} sortBy={sortBy} sortOrder={sortOrder} onSort={onSort} />
        ))}
        {passwordColumn && (
          <th scope="col" className={`${PLAIN_HEADER} text-left`}>
            Password
          </th>
        )}
        <th scope="col" className={`${PLAIN_HEADER} text-right`}>
          Actions
        </th>
      </tr>
    </thead>
  );
}
