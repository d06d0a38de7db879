import type { AdminSection } from '@common/schemas/course-views';
import type { Drip } from '@common/schemas/courses';
import { type FormEvent, useId, useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { INPUT_CLASS, TextField } from '../../../components/ui/text-field';
import { useUpdateSection } from './api';

/** A section's title and when it opens: at once, some days after the member starts, or on a date. */
export function SectionSettings({
  courseId,
  section,
  onDone,
}: {
  courseId: string;
  section: AdminSection;
  onDone: () => void;
}) {
  const ids = useId();
  const update = useUpdateSection(courseId);
  const notices = useNotices();
  const [title, setTitle] = useState(section.title);
  const [kind, setKind] = useState<Drip['kind']>(section.drip.kind);
  const [days, setDays] = useState(section.drip.kind === 'days' ? section.drip.days : 7);
  const [date, setDate] = useState(section.drip.kind === 'date' ? section.drip.date : '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const drip: Drip = kind === 'days' ? { kind, days } : kind === 'date' ? { kind, date } : { kind: 'none' };
    try {
      await update.mutateAsync({ id: section.id, body: { title, drip } });
      notices.success('Section saved.');
      onDone();
    } catch (error) {
      notices.error('The section was not saved.', { detail: (error as Error).message });
    }
  };

  return (
    <form onSubmit={submit} className="space-y-3 border-b border-white/10 bg-black/20 p-3">
      <TextField
        label="Section title"
        value={title}
        maxLength={160}
        onChange={(e) => setTitle(e.target.value)}
      />
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-stone-300">Opens</legend>
        <div className="space-y-2 text-sm text-stone-200">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${ids}-drip`}
              className="accent-amber-400"
              checked={kind === 'none'}
              onChange={() => setKind('none')}
            />
            At once
          </label>
          <label className="flex flex-wrap items-center gap-2">
            <input
              type="radio"
              name={`${ids}-drip`}
              className="accent-amber-400"
              checked={kind === 'days'}
              onChange={() => setKind('days')}
            />
            <input
              type="number"
              min={1}
              max={3650}
              aria-label="Days after the member starts"
              className={`${INPUT_CLASS} !w-20 !py-1`}
              value={days}
              disabled={kind !== 'days'}
              onChange={(e) => setDays(Number(e.target.value))}
            />
            days after the member joined (paid courses: after they became paid)
          </label>
          <label className="flex flex-wrap items-center gap-2">
            <input
              type="radio"
              name={`${ids}-drip`}
              className="accent-amber-400"
              checked={kind === 'date'}
              onChange={() => setKind('date')}
            />
            On
            <input
              type="date"
              aria-label="Opening date"
              className={`${INPUT_CLASS} !w-auto !py-1`}
              value={date}
              disabled={kind !== 'date'}
              required={kind === 'date'}
              onChange={(e) => setDate(e.target.value)}
            />
          </label>
        </div>
      </fieldset>
      <div className="flex gap-2">
        <Button type="submit" disabled={update.isPending || !title.trim()}>
          Save section
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
