import { type CancelledEmailChange, EMAIL_CHANGE_CANCELLED } from '@common/schemas/account';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { useCancelEmailChange, useChangeEmail } from '../api';
import { errorText } from '../error-text';
import { ACTION_ROW, Section } from './section';

const NOTICE = 'rounded-lg border border-amber-400/30 bg-amber-400/10 px-3.5 py-2.5 text-sm text-amber-100';

/**
 * A new address takes effect only once the link mailed to it is opened; until then the member can
 * cancel it, and is told when their password change, reset or Sign out everywhere cancelled it.
 */
export function EmailSection({
  email,
  pendingEmail,
  cancelled,
}: {
  email: string;
  pendingEmail: string | null;
  cancelled: CancelledEmailChange | null;
}) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const change = useChangeEmail();
  const cancel = useCancelEmailChange();
  const onCancel = () => cancel.mutate(undefined, { onSuccess: () => change.reset() });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    cancel.reset();
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
      <div className="mb-4 space-y-3 empty:hidden">
        {pendingEmail && (
          <div className={`flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between ${NOTICE}`}>
            <p>Waiting for confirmation: open the link we sent to {pendingEmail}.</p>
            <Button variant="secondary" onClick={onCancel} disabled={cancel.isPending}>
              Cancel
            </Button>
          </div>
        )}
        {cancelled && !pendingEmail && <p className={NOTICE}>{EMAIL_CHANGE_CANCELLED(cancelled)}</p>}
        {cancel.isSuccess && <FormMessage tone="success">{cancel.data.message}</FormMessage>}
        {cancel.isError && (
          <FormMessage tone="error">{errorText(cancel.error, 'Could not cancel the change')}</FormMessage>
        )}
      </div>
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
