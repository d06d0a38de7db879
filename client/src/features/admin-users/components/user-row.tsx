import { MIN_PASSWORD_LENGTH } from '@common/constants';
import { formatDay } from '@common/dates';
import type { UpdateUserBody } from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import { useState } from 'react';
import { SelectField } from '../../../components/ui/select-field';
import { STACKED_CELL, STACKED_ROW } from '../../../components/ui/stacked-table';
import { COMPACT_INPUT_CLASS } from '../../../components/ui/text-field';
import { BillingNote } from '../../payments/admin/billing-note';
import { ROLE_OPTIONS, STATUS_OPTIONS, TIER_OPTIONS } from '../user-options';
import { EndSessionsButton } from './end-sessions-button';

export interface UserRowProps {
  user: PublicUser;
  editing: boolean;
  busy: boolean;
  /** Some row is being edited: the Password column is there, empty in the other rows. */
  passwordColumn: boolean;
  /** The user just added: marked so that the eye finds them. */
  highlighted?: boolean;
  onEdit: () => void;
  onCancel: () => void;
  /** The panel leaves edit mode when the save succeeds. */
  onSave: (changes: UpdateUserBody) => Promise<void>;
  onDelete: () => void;
}

const BADGES: Record<string, string> = {
  admin: 'bg-accent-400/15 text-accent-300 ring-accent-400/30',
  user: 'bg-white/5 text-stone-300 ring-white/15',
  paid: 'bg-emerald-400/15 text-emerald-300 ring-emerald-400/30',
  free: 'bg-sky-400/10 text-sky-300 ring-sky-400/25',
  active: 'bg-emerald-400/10 text-emerald-300 ring-emerald-400/25',
  suspended: 'bg-red-500/15 text-red-300 ring-red-400/30',
};

function Badge({ value }: { value: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium capitalize ring-1 ring-inset ${BADGES[value] ?? ''}`}
    >
      {value}
    </span>
  );
}

const EDIT_CELL = 'block py-1.5 md:table-cell md:px-2 md:py-3 md:align-middle md:first:pl-3 md:last:pr-3';
const ACTIONS_CELL =
  'flex justify-end gap-1 whitespace-nowrap pt-2 md:table-cell md:px-3 md:py-3 md:text-right md:align-middle';
const CAPTION = 'mb-1 block text-[0.65rem] font-semibold uppercase tracking-wider text-stone-400';
const ACTION = 'rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors disabled:opacity-50';

/** What the Tier column says of an administrator, in the Dashboard's words. */
export const ADMIN_TIER = 'No tier: administrators are not members';

/** One user: shown plainly, or edited in place. Editing starts from the user's values and an empty password. */
export function UserRow({
  user,
  editing,
  busy,
  passwordColumn,
  highlighted = false,
  onEdit,
  onCancel,
  onSave,
  onDelete,
}: UserRowProps) {
  const [draft, setDraft] = useState(() => toDraft(user));
  const set = (key: keyof ReturnType<typeof toDraft>, value: string) =>
    setDraft((d) => ({ ...d, [key]: value }));

  if (!editing) {
    return (
      <tr
        className={`${STACKED_ROW} ${highlighted ? 'bg-accent-400/10 ring-2 ring-inset ring-accent-400/60' : 'hover:bg-white/[0.03]'}`}
        aria-current={highlighted ? 'true' : undefined}
      >
        <td data-label="Name" className={`${STACKED_CELL} font-medium text-white`}>
          {user.name}
        </td>
        <td data-label="Email" className={`${STACKED_CELL} break-all text-stone-300 md:break-normal`}>
          {user.email}
        </td>
        <td data-label="Role" className={STACKED_CELL}>
          <Badge value={user.role} />
        </td>
        <td data-label="Tier" className={STACKED_CELL}>
          {user.role === 'admin' ? (
            // An administrator opens every course and is no member: the Dashboard counts them in
            // neither Paid nor Free Members, so no tier is shown here either (the stored one waits
            // in the edit form, should they become a member again).
            <span className="text-stone-400" title={ADMIN_TIER}>
              <span aria-hidden="true">—</span>
              <span className="sr-only">{ADMIN_TIER}</span>
            </span>
          ) : (
            <span className="flex flex-col items-end gap-1 md:items-start">
              <Badge value={user.membershipTier} />
              <BillingNote user={user} />
            </span>
          )}
        </td>
        <td data-label="Status" className={STACKED_CELL}>
          <Badge value={user.status} />
        </td>
        <td data-label="Joined" className={`${STACKED_CELL} whitespace-nowrap text-stone-300`}>
          <time dateTime={user.createdAt}>{joined(user.createdAt)}</time>
        </td>
        {/* Passwords are never shown: the column exists only while a row is edited. */}
        {passwordColumn && <td aria-hidden="true" className="hidden md:table-cell" />}
        <td className={ACTIONS_CELL}>
          <button
            key="edit"
            type="button"
            onClick={() => {
              setDraft(toDraft(user));
              onEdit();
            }}
            aria-label={`Edit ${user.name}`}
            className={`${ACTION} text-accent-300 hover:bg-accent-400/10`}
          >
            Edit
          </button>
          <EndSessionsButton user={user} className={ACTION} />
          <button
            key="delete"
            type="button"
            onClick={onDelete}
            disabled={busy}
            aria-label={`Delete ${user.name}`}
            className={`${ACTION} ml-1 text-red-300 hover:bg-red-500/10`}
          >
            Delete
          </button>
        </td>
      </tr>
    );
  }

  // Table cells ignore min-width, so the fields inside them carry it.
  const field = (key: 'name' | 'email' | 'password', label: string, type = 'text') => (
    <label className={`block ${key === 'email' ? 'md:min-w-40' : 'md:min-w-24'}`}>
      <span className={CAPTION}>{label}</span>
      <input
        type={type}
        value={draft[key]}
        onChange={(e) => set(key, e.target.value)}
        required={key !== 'password'}
        minLength={key === 'password' ? MIN_PASSWORD_LENGTH : undefined}
        placeholder={key === 'password' ? 'Leave blank to keep' : undefined}
        autoComplete={key === 'password' ? 'new-password' : 'off'}
        className={COMPACT_INPUT_CLASS}
      />
    </label>
  );

  async function save() {
    const changes: UpdateUserBody = {
      name: draft.name,
      email: draft.email,
      role: draft.role as UpdateUserBody['role'],
      membershipTier: draft.membershipTier as UpdateUserBody['membershipTier'],
      status: draft.status as UpdateUserBody['status'],
    };
    // An empty password is left out, so the current one stays.
    if (draft.password) changes.password = draft.password;
    await onSave(changes);
  }

  return (
    <tr className={`${STACKED_ROW} bg-accent-400/[0.04]`} aria-label={`Editing ${user.name}`}>
      <td className={EDIT_CELL}>{field('name', 'Name')}</td>
      <td className={EDIT_CELL}>{field('email', 'Email', 'email')}</td>
      <td className={EDIT_CELL}>
        <SelectField
          compact
          className="md:min-w-18"
          label="Role"
          options={ROLE_OPTIONS}
          value={draft.role}
          onChange={(e) => set('role', e.target.value)}
        />
      </td>
      <td className={EDIT_CELL}>
        <SelectField
          compact
          className="md:min-w-18"
          label="Tier"
          options={TIER_OPTIONS}
          value={draft.membershipTier}
          onChange={(e) => set('membershipTier', e.target.value)}
          hint={draft.role === 'admin' ? 'Counts once the role is User' : undefined}
        />
      </td>
      <td className={EDIT_CELL}>
        <SelectField
          compact
          className="md:min-w-24"
          label="Status"
          options={STATUS_OPTIONS}
          value={draft.status}
          onChange={(e) => set('status', e.target.value)}
        />
      </td>
      <td data-label="Joined" className={`${STACKED_CELL} whitespace-nowrap text-stone-400`}>
        <time dateTime={user.createdAt}>{joined(user.createdAt)}</time>
      </td>
      <td className={EDIT_CELL}>{field('password', 'New password', 'password')}</td>
      <td className={`${EDIT_CELL} whitespace-nowrap pt-3`}>
        {/* Stacked in the table, so that editing a row does not make the table wider than a laptop. */}
        <div className="flex justify-end gap-1 md:flex-col md:items-stretch">
          {/* Keyed apart from Edit, so the buttons swap instead of fading from one style to the other. */}
          <button
            key="save"
            type="button"
            onClick={save}
            disabled={busy}
            className={`${ACTION} bg-accent-400 text-stone-950 hover:bg-accent-300`}
          >
            {busy ? 'Saving…' : 'Save'}
          </button>
          <button
            key="cancel"
            type="button"
            onClick={onCancel}
            disabled={busy}
            className={`${ACTION} text-stone-300 hover:bg-white/10`}
          >
            Cancel
          </button>
        </div>
      </td>
    </tr>
  );
}

const joined = (iso: string) => formatDay(iso);

function toDraft(user: PublicUser) {
  return {
    name: user.name,
    email: user.email,
    password: '',
    role: user.role as string,
    membershipTier: user.membershipTier as string,
    status: user.status as string,
  };
}
