import type { WelcomeSettings } from '@common/schemas/mail-members';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { MarkdownField } from '../../../components/console/markdown-field';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { TextField } from '../../../components/ui/text-field';
import { useAnnouncementPreview, useSaveWelcome, useSendWelcomeTest, useWelcome } from '../api';

type Tier = keyof WelcomeSettings;
const TIER_WORDS: Record<Tier, { tab: string; when: string }> = {
  free: { tab: 'On joining', when: 'Sent once, when someone creates an account.' },
  paid: { tab: 'On becoming paid', when: 'Sent once, when Stripe or you make a member paid.' },
};

/**
 * The two welcome mails (joining, becoming paid): on or off, subject and Markdown with the
 * preview, a test to the owner. `{{name}}` and `{{site}}` are filled in for each member.
 */
export function WelcomeCard() {
  const ids = useId();
  const welcome = useWelcome();
  const save = useSaveWelcome();
  const test = useSendWelcomeTest();
  const notices = useNotices();
  const [tier, setTier] = useState<Tier>('free');
  const [draft, setDraft] = useState<WelcomeSettings | null>(null);

  useEffect(() => {
    if (welcome.data) setDraft((current) => current ?? welcome.data);
  }, [welcome.data]);
  const mail = draft?.[tier];
  const preview = useAnnouncementPreview({ subject: mail?.subject ?? '', markdown: mail?.markdown ?? '' });
  const set = (fields: Partial<WelcomeSettings[Tier]>) =>
    setDraft((current) => (current ? { ...current, [tier]: { ...current[tier], ...fields } } : current));

  async function onSave(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    try {
      setDraft(await save.mutateAsync(draft));
      notices.success('Welcome mails saved.');
    } catch (error) {
      notices.error(`Not saved: ${(error as Error).message}`);
    }
  }

  async function onTest() {
    if (!mail) return;
    try {
      notices.success(
        (await test.mutateAsync({ tier, subject: mail.subject, markdown: mail.markdown })).message,
      );
    } catch (error) {
      notices.error(`The test was not sent: ${(error as Error).message}`);
    }
  }

  return (
    <Card className="sm:p-6">
      <section aria-labelledby={`${ids}-heading`}>
        <h2 id={`${ids}-heading`} className="text-lg font-semibold text-white">
          Welcome mails
        </h2>
        <fieldset className="mt-4 flex gap-2">
          <legend className="sr-only">Which welcome mail</legend>
          {(Object.keys(TIER_WORDS) as Tier[]).map((key) => (
            <Button
              key={key}
              variant={key === tier ? 'primary' : 'secondary'}
              aria-pressed={key === tier}
              className="px-3 py-1.5"
              onClick={() => setTier(key)}
            >
              {TIER_WORDS[key].tab}
            </Button>
          ))}
        </fieldset>
        {mail && (
          <form onSubmit={onSave} className="mt-4 space-y-4">
            <p className="text-sm text-stone-300">
              {TIER_WORDS[tier].when} Write {'{{name}}'} for the member’s name.
            </p>
            <CheckboxField
              label="Send this mail"
              checked={mail.enabled}
              onChange={(enabled) => set({ enabled })}
            />
            <TextField
              label="Subject"
              value={mail.subject}
              maxLength={200}
              onChange={(e) => set({ subject: e.target.value })}
            />
            <MarkdownField
              id={ids}
              value={mail.markdown}
              onChange={(markdown) => set({ markdown })}
              html={preview}
              height="min-h-56"
            />
            <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
              <Button variant="secondary" disabled={test.isPending} onClick={onTest}>
                Send me a test
              </Button>
              <Button type="submit" disabled={save.isPending}>
                Save welcome mails
              </Button>
            </div>
          </form>
        )}
      </section>
    </Card>
  );
}
