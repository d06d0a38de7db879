import type { CoursesSettingsBody } from '@common/schemas/courses';
import { type FormEvent, useEffect, useState } from 'react';
import { useUnsavedChanges } from '../../../components/console/leave-guard';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { UpgradeOffer } from '../components/upgrade-offer';
import { useCoursesSettings, useSaveCoursesSettings } from './api';

/** The upgrade offer free members see beside paid courses (dashboard, locked lessons). */
export function CoursesSettingsCard() {
  const saved = useCoursesSettings();
  const save = useSaveCoursesSettings();
  const notices = useNotices();
  const [draft, setDraft] = useState<CoursesSettingsBody | null>(null);
  useEffect(() => {
    if (saved.data) setDraft((current) => current ?? saved.data);
  }, [saved.data]);
  const changed =
    draft !== null &&
    saved.data !== undefined &&
    (Object.keys(draft) as Array<keyof CoursesSettingsBody>).some((key) => draft[key] !== saved.data[key]);
  useUnsavedChanges(changed ? 'the upgrade offer' : null);
  const set = (key: keyof CoursesSettingsBody) => (event: { target: { value: string } }) =>
    setDraft((current) => current && { ...current, [key]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    try {
      setDraft(await save.mutateAsync(draft));
      notices.success('Upgrade offer saved.');
    } catch (error) {
      notices.error('The upgrade offer was not saved.', { detail: (error as Error).message });
    }
  };

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Upgrade offer</h2>
      <p className="mt-1 text-sm text-stone-400">
        Shown to free members beside the paid courses they cannot open yet: on their dashboard and on locked
        lessons.
      </p>
      {draft && (
        <form onSubmit={submit} className="mt-5 grid gap-4 md:grid-cols-2">
          <TextField
            label="Sentence"
            className="md:col-span-2"
            value={draft.upgradeText}
            maxLength={400}
            onChange={set('upgradeText')}
            placeholder="Every course, every week: join the Architect tier."
          />
          <TextField
            label="Link text"
            value={draft.upgradeLinkLabel}
            maxLength={60}
            onChange={set('upgradeLinkLabel')}
            placeholder="Upgrade"
          />
          <TextField
            label="Link address"
            value={draft.upgradeLinkUrl}
            onChange={set('upgradeLinkUrl')}
            placeholder="https://… or /dashboard"
            hint="An https:// address or a path on this site. Signed-in members following /join go to their dashboard’s Upgrade instead."
          />
          <div className="md:col-span-2">
            <p className="mb-2 text-xs font-semibold uppercase tracking-wider text-stone-400">
              What members see
            </p>
            <UpgradeOffer offer={draft.upgradeText || draft.upgradeLinkUrl ? draft : null} />
            {!draft.upgradeText && !draft.upgradeLinkUrl && (
              <p className="text-sm text-stone-400">Nothing yet.</p>
            )}
          </div>
          <div className="md:col-span-2">
            <Button type="submit" disabled={!changed || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save upgrade offer'}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
