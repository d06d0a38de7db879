import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { useChangeEmail } from '../api';
import { errorText } from '../error-text';
import { ACTION_ROW, Section } from './section';

/** A new address takes effect only once the link mailed to it is opened. */
export function EmailSection({ email, pendingEmail }: { email: string; pendingEmail: string | null }) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const change = useChangeEmail();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { email: newEmail, password },
      {
        onSuccess: () => {
          setNewEmail('');
          setPassword('');
        },
      },
    );
  };
  return (
    <Section
      title="E-mail address"
      intro={
        <>
          You sign in with <strong className="font-semibold text-white">{email}</strong>. A new address is
          used once you open the link we send to it.
        </>
      }
    >
      {pendingEmail && !change.isSuccess && (
        <p className="mb-4 rounded-lg border border-amber-400/30 bg-amber-400/10 px-3.5 py-2.5 text-sm text-amber-100">
          Waiting for confirmation: open the link we sent to {pendingEmail}.
        </p>
      )}
      <form onSubmit={onSubmit} className="space-y-4">
        <TextField
          label="New e-mail address"
          type="email"
          autoComplete="email"
          required
          value={newEmail}
          onChange={(e) => setNewEmail(e.target.value)}
        />
        <PasswordField
          label="Current password"
          hint="Needed to change your e-mail address."
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {change.isSuccess && <FormMessage tone="success">{change.data.message}</FormMessage>}
        {change.isError && (
          <FormMessage tone="error">
            {errorText(change.error, 'Could not change your e-mail address')}
          </FormMessage>
        )}
        <div className={ACTION_ROW}>
          <Button type="submit" disabled={change.isPending}>
            Send confirmation link
          </Button>
        </div>
      </form>
    </Section>
  );
}
