import { MIN_PASSWORD_LENGTH } from '@common/constants';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PasswordField } from '../../../components/ui/password-field';
import { useChangePassword } from '../api';
import { errorText } from '../error-text';
import { ACTION_ROW, Section } from './section';

const EMPTY = { current: '', next: '', confirm: '' };

/** A new password signs out every other browser and device; this one stays signed in. */
export function PasswordSection() {
  const [fields, setFields] = useState(EMPTY);
  const [mismatch, setMismatch] = useState(false);
  const change = useChangePassword();
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [key]: e.target.value }));
    setMismatch(false);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (fields.next !== fields.confirm) {
      setMismatch(true);
      return;
    }
    change.mutate(
      { currentPassword: fields.current, newPassword: fields.next },
      { onSuccess: () => setFields(EMPTY) },
    );
  };
  return (
    <Section title="Password" intro="Changing it signs you out on every other browser and device.">
      <form onSubmit={onSubmit} className="space-y-4">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          required
          value={fields.current}
          onChange={set('current')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField
            label="New password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            value={fields.next}
            onChange={set('next')}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            value={fields.confirm}
            onChange={set('confirm')}
          />
        </div>
        {mismatch && <FormMessage tone="error">Passwords do not match</FormMessage>}
        {change.isSuccess && <FormMessage tone="success">{change.data.message}</FormMessage>}
        {change.isError && (
          <FormMessage tone="error">{errorText(change.error, 'Could not change your password')}</FormMessage>
        )}
        <div className={ACTION_ROW}>
          <Button type="submit" disabled={change.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </Section>
  );
}
