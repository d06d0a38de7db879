import type { MailPreferences } from '@common/schemas/mail-members';
import { useEffect, useState } from 'react';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { FormMessage } from '../../../components/ui/form-message';
import { useMailPreferences, useSaveMailPreferences } from '../api';

/**
 * On /account: which mails the member wants, saved at each tick. The same choices as the page
 * every unsubscribe link opens; mail about the account itself is always sent.
 */
export function MailPreferencesSection() {
  const preferences = useMailPreferences();
  const save = useSaveMailPreferences();
  // The box follows the click at once; the server's answer (or a refusal's re-read) follows.
  const [current, setCurrent] = useState<MailPreferences | null>(null);
  useEffect(() => {
    if (preferences.data) setCurrent(preferences.data);
  }, [preferences.data]);
  const change = (key: keyof MailPreferences, value: boolean) => {
    if (!current) return;
    const next = { ...current, [key]: value };
    setCurrent(next);
    save.mutate(next);
  };
  return (
    <section aria-labelledby="section-mail">
      <Card className="w-full">
        <h2 id="section-mail" className="font-display text-2xl text-white">
          Mail from us
        </h2>
        <p className="mt-1 text-sm text-stone-300">
          Choose what we send you. Mail about your account (password resets, receipts) always comes.
        </p>
        <div className="mt-5 space-y-3">
          {current ? (
            <>
              <CheckboxField
                label="Announcements from the site"
                checked={current.announcements}
                onChange={(value) => change('announcements', value)}
              />
              <CheckboxField
                label="News of new lessons in courses I started"
                checked={current.lessons}
                onChange={(value) => change('lessons', value)}
              />
            </>
          ) : (
            <p className="text-sm text-stone-400" role="status">
              {preferences.isError ? 'Could not load your choices.' : 'Loading your choices…'}
            </p>
          )}
          {save.isSuccess && <FormMessage tone="success">Saved.</FormMessage>}
          {save.isError && <FormMessage tone="error">{`Not saved: ${save.error.message}`}</FormMessage>}
        </div>
      </Card>
    </section>
  );
}
