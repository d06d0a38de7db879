import { formatDay } from '@common/dates';
import type { PublicUser } from '@common/schemas/user';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { TextField } from '../../../components/ui/text-field';
import { useSaveName } from '../api';
import { errorText } from '../error-text';
import { ACTION_ROW, Section } from './section';

const TIER_LABEL = { free: 'Free', paid: 'Paid' } as const;
const STATUS_LABEL = { active: 'Active', suspended: 'Suspended' } as const;

/** Name (editable), and the membership as the owner set it: tier, status, date joined. */
export function ProfileSection({ user }: { user: PublicUser }) {
  const [name, setName] = useState(user.name);
  const save = useSaveName();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name });
  };
  const joined = formatDay(user.createdAt);
  return (
    <Section title="Membership" intro="Your name as the site shows it, and your membership as it stands.">
      <dl className="grid grid-cols-1 gap-4 rounded-xl border border-white/10 bg-black/20 p-4 sm:grid-cols-3">
        <Fact label="Tier">{TIER_LABEL[user.membershipTier]}</Fact>
        <Fact label="Status">{STATUS_LABEL[user.status]}</Fact>
        <Fact label="Member since">{joined}</Fact>
      </dl>
      <form onSubmit={onSubmit} className="mt-5 space-y-4">
        <TextField
          label="Name"
          autoComplete="name"
          required
          maxLength={100}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            save.reset();
          }}
        />
        {save.isSuccess && <FormMessage tone="success">Name saved.</FormMessage>}
        {save.isError && (
          <FormMessage tone="error">{errorText(save.error, 'Could not save your name')}</FormMessage>
        )}
        <div className={ACTION_ROW}>
          <Button type="submit" disabled={save.isPending || name.trim() === user.name}>
            Save name
          </Button>
        </div>
      </form>
    </Section>
  );
}

function Fact({ label, children }: { label: string; children: string }) {
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wider text-stone-400">{label}</dt>
      <dd className="mt-1 text-base text-white">{children}</dd>
    </div>
  );
}
