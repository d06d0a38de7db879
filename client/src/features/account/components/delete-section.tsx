import { DELETE_CONFIRMATION } from '@common/schemas/account';
import { ENDED_STATUSES } from '@common/schemas/billing';
import type { Role } from '@common/schemas/user';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { leaveNotice } from '../../../lib/next-page-notice';
import { useForgetSession } from '../../../lib/use-logout';
import { useMemberBilling } from '../../payments/api';
import { useDeleteAccount } from '../api';
import { errorText } from '../error-text';
import { ACTION_ROW, Section } from './section';

/**
 * Closing the account for good. Administrators are removed by another administrator instead. The
 * page says what stays: the Activity log's entries about the account, without name or address.
 */
export function DeleteSection({ role, retentionDays }: { role: Role; retentionDays: number }) {
  const forget = useForgetSession();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const remove = useDeleteAccount();
  const subscription = useMemberBilling().data?.subscription;
  // The server cancels a subscription that has not ended before it deletes anything.
  const cancelsSubscription = Boolean(subscription && !ENDED_STATUSES.includes(subscription.status));

  if (role === 'admin') {
    return (
      <Section title="Delete account" tone="danger">
        <p className="text-sm text-stone-200">
          You are an administrator, so you cannot delete your own account here: another administrator can
          delete it in the console (User Management). This way the site always keeps an owner.
        </p>
      </Section>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const gone = () => {
      leaveNotice('Your account has been deleted and you are signed out everywhere.');
      forget();
    };
    remove.mutate({ password, confirmation }, { onSuccess: gone });
  };
  return (
    <Section
      title="Delete account"
      tone="danger"
      intro={`Deletes your account and signs you out everywhere.${cancelsSubscription ? ' Your subscription is cancelled at once: no further payment is taken, and your paid access ends now.' : ''} This cannot be undone. The site's Activity log keeps its entries about your account (what was changed, when, and from which network address) for up to ${retentionDays} days, without your name or e-mail address.`}
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField
            label="Your password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <TextField
            label={`Type ${DELETE_CONFIRMATION} to confirm`}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
          />
        </div>
        {remove.isError && (
          <FormMessage tone="error">{errorText(remove.error, 'Could not delete your account')}</FormMessage>
        )}
        <div className={ACTION_ROW}>
          <Button
            type="submit"
            variant="danger"
            disabled={
              remove.isPending || remove.isSuccess || confirmation.trim() !== DELETE_CONFIRMATION || !password
            }
          >
            Delete my account
          </Button>
        </div>
      </form>
    </Section>
  );
}
