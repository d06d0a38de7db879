import { MIN_PASSWORD_LENGTH } from '@common/constants';
import type { CreateUserBody } from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PasswordField } from '../../../components/ui/password-field';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useCreateUser } from '../api';
import { ROLE_OPTIONS, STATUS_OPTIONS, TIER_OPTIONS } from '../user-options';

// A new user is a free, active member unless chosen otherwise.
const EMPTY: CreateUserBody = {
  name: '',
  email: '',
  password: '',
  role: 'user',
  membershipTier: 'free',
  status: 'active',
};

export interface AddUserModalProps {
  open: boolean;
  onClose: () => void;
  /** The user as created, so the list can say so and show them. */
  onCreated: (user: PublicUser) => void;
}

/** 'Add New User': a native modal dialog, so focus stays inside and Escape closes it. */
export function AddUserModal({ open, onClose, onCreated }: AddUserModalProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [form, setForm] = useState<CreateUserBody>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateUser();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setForm(EMPTY);
      setError(null);
      element.showModal();
    } else if (!open && element.open) element.close();
  }, [open]);

  const set = <K extends keyof CreateUserBody>(key: K, value: CreateUserBody[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const { data } = await create.mutateAsync(form);
      onClose();
      onCreated(data);
    } catch (failure) {
      setError(`Failed to add user: ${(failure as Error).message}`);
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby="add-user-title"
      onClose={onClose}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl border border-white/10 bg-stone-900/95 p-0 text-stone-100 shadow-2xl shadow-black/60 backdrop:bg-black/70 backdrop:backdrop-blur-sm"
    >
      <form onSubmit={submit} className="space-y-4 p-6 sm:p-8">
        <h2 id="add-user-title" className="text-xl font-semibold text-white">
          Add New User
        </h2>
        <TextField
          label="Name"
          required
          autoComplete="off"
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
        />
        <TextField
          label="Email"
          type="email"
          required
          autoComplete="off"
          value={form.email}
          onChange={(e) => set('email', e.target.value)}
        />
        <PasswordField
          label="Password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => set('password', e.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            label="Role"
            options={ROLE_OPTIONS}
            value={form.role}
            onChange={(e) => set('role', e.target.value as CreateUserBody['role'])}
          />
          <SelectField
            label="Tier"
            options={TIER_OPTIONS}
            value={form.membershipTier}
            onChange={(e) => set('membershipTier', e.target.value as CreateUserBody['membershipTier'])}
          />
          <SelectField
            label="Status"
            options={STATUS_OPTIONS}
            value={form.status}
            onChange={(e) => set('status', e.target.value as CreateUserBody['status'])}
          />
        </div>
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <div className="flex justify-end gap-3 pt-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create User'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
