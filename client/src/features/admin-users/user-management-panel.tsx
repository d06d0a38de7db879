import { USER_SEARCH_DEBOUNCE_MS } from '@common/constants';
import {
  USERS_PAGE_SIZE,
  USERS_PAGE_SIZES,
  type UserListResponse,
  type UserSortField,
} from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import { useEffect, useState } from 'react';
import { useNotices } from '../../components/console/notices';
import { Button } from '../../components/ui/button';
import { PageSizeSelect } from '../../components/ui/page-size-select';
import { Pagination } from '../../components/ui/pagination';
import { downloadUsersCsv, type UserListParams, useUserList } from './api';
import { AddUserModal } from './components/add-user-modal';
import { MobileSort } from './components/mobile-sort';
import { UserFilters } from './components/user-filters';
import { UserRow } from './components/user-row';
import { UsersTableHead } from './components/users-table-head';
import { firstOrderOf, SORTABLE_COLUMNS } from './sort-columns';
import { useDebouncedValue } from './use-debounced-value';
import { useRemoveUser } from './use-remove-user';
import { useSaveUser } from './use-save-user';

export function UserManagementPanel() {
  const [params, setParams] = useState<UserListParams>({
    page: 1,
    pageSize: USERS_PAGE_SIZE,
    search: '',
    sortBy: 'createdAt',
    sortOrder: 'desc',
  });
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), USER_SEARCH_DEBOUNCE_MS);
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const notices = useNotices();
  /** The user just added: highlighted until the list changes otherwise. */
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  const list = useUserList(params);
  const update = useSaveUser(() => setEditingId(null));
  const remove = useRemoveUser();

  // A failed fetch keeps the last table on screen; the failure is only logged.
  const [shown, setShown] = useState<UserListResponse | null>(null);
  useEffect(() => {
    if (list.data) setShown(list.data);
  }, [list.data]);
  useEffect(() => {
    if (list.error) console.error('Failed to load users:', list.error);
  }, [list.error]);

  useEffect(() => {
    setParams((current) => (current.search === search ? current : { ...current, search, page: 1 }));
  }, [search]);

  // Deleting the last user of the last page leaves an empty page: step back to the new last one.
  useEffect(() => {
    if (shown && shown.data.length === 0 && shown.currentPage > shown.totalPages)
      setParams((current) => ({ ...current, page: shown.totalPages }));
  }, [shown]);

  const sortBy = (field: UserSortField) =>
    setParams((current) => ({
      ...current,
      sortBy: field,
      sortOrder:
        current.sortBy === field ? (current.sortOrder === 'asc' ? 'desc' : 'asc') : firstOrderOf(field),
      page: 1,
    }));

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadUsersCsv({
        search: params.search,
        sortBy: params.sortBy,
        sortOrder: params.sortOrder,
        billing: params.billing,
      });
    } catch (failure) {
      notices.error(`Failed to export users: ${(failure as Error).message}`);
    } finally {
      setExporting(false);
    }
  }

  /** After Add User: say so, and show them first in the list (newest first), highlighted. */
  function created(user: PublicUser) {
    setSearchText('');
    setParams((current) => ({ ...current, page: 1, search: '', sortBy: 'createdAt', sortOrder: 'desc' }));
    setHighlightId(user._id);
    notices.success(`Added ${user.name} (${user.email}).`, {
      detail: 'They are highlighted at the top of the list, newest first.',
      seconds: 5,
    });
  }

  const users = shown?.data ?? [];
  const passwordColumn = editingId !== null;
  const columns = SORTABLE_COLUMNS.length + (passwordColumn ? 2 : 1);
  return (
    <section aria-labelledby="users-heading">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="users-heading" className="text-2xl font-semibold text-white sm:text-3xl">
            User Management
          </h1>
          <p className="mt-2 text-stone-300">Add, view, and manage all users on the platform.</p>
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={exportCsv} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Export CSV'}
          </Button>
          <Button onClick={() => setAdding(true)}>Add User</Button>
        </div>
      </div>

      <UserFilters
        searchText={searchText}
        onSearchText={setSearchText}
        billing={params.billing}
        onBilling={(billing) => setParams((current) => ({ ...current, billing, page: 1 }))}
      />

      <MobileSort
        sortBy={params.sortBy}
        sortOrder={params.sortOrder}
        onChange={(sortBy, sortOrder) => setParams((current) => ({ ...current, sortBy, sortOrder, page: 1 }))}
      />

      <div className="mt-6 md:overflow-x-auto md:rounded-2xl md:border md:border-white/10 md:bg-stone-950/60 md:shadow-2xl md:shadow-black/40 md:backdrop-blur-xl">
        <table className="block w-full text-sm md:table md:min-w-[56rem]" aria-busy={list.isFetching}>
          <UsersTableHead
            sortBy={params.sortBy}
            sortOrder={params.sortOrder}
            onSort={sortBy}
            passwordColumn={passwordColumn}
          />
          <tbody className="block md:table-row-group">
            {users.map((user) => (
              <UserRow
                key={user._id}
                user={user}
                editing={editingId === user._id}
                busy={(update.isPending && editingId === user._id) || remove.isPending}
                passwordColumn={passwordColumn}
                highlighted={highlightId === user._id}
                onEdit={() => setEditingId(user._id)}
                onCancel={() => setEditingId(null)}
                onSave={(changes) => update.save(user, changes)}
                onDelete={() => remove.destroy(user)}
              />
            ))}
            {shown && users.length === 0 && (
              <tr className="block md:table-row">
                <td colSpan={columns} className="block px-4 py-10 text-center text-stone-400 md:table-cell">
                  {params.search
                    ? `No users match “${params.search}”.`
                    : params.billing
                      ? 'No users match this filter.'
                      : 'No users yet.'}
                </td>
              </tr>
            )}
            {!shown && (
              <tr className="block md:table-row">
                <td colSpan={columns} className="block px-4 py-10 text-center text-stone-400 md:table-cell">
                  {list.isError ? 'Could not load users.' : 'Loading users…'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3 text-sm text-stone-400">
          <span>
            {shown
              ? `${shown.totalExact === false ? 'More than ' : ''}${shown.total.toLocaleString()} ${shown.total === 1 ? 'user' : 'users'}`
              : ''}
          </span>
          <PageSizeSelect
            id="users-page-size"
            sizes={USERS_PAGE_SIZES}
            value={params.pageSize}
            onChange={(pageSize) => setParams((current) => ({ ...current, pageSize, page: 1 }))}
          />
        </div>
        <Pagination
          page={shown?.currentPage ?? params.page}
          totalPages={shown?.totalPages ?? 1}
          more={shown?.totalExact === false}
          onPage={(page) => setParams((current) => ({ ...current, page }))}
        />
      </div>

      <AddUserModal open={adding} onClose={() => setAdding(false)} onCreated={created} />
    </section>
  );
}
