import { COURSE_ACCESS, COURSE_ACCESS_LABELS, type CourseAccess } from '@common/courses';
import type { AdminCourse } from '@common/schemas/course-views';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { INPUT_CLASS, TextField } from '../../../components/ui/text-field';
import { useUpdateCourse } from './api';
import { CoverPicker } from './cover-picker';

type Draft = Pick<AdminCourse, 'title' | 'slug' | 'summary' | 'coverUrl' | 'access' | 'published'>;

const ACCESS_HINTS: Record<CourseAccess, string> = {
  public: 'Anyone, signed in or not.',
  members: 'Any signed-in member, free or paid.',
  paid: 'Paid members only. Free members see it locked, with your upgrade offer.',
};

/** "Morning Practice!" → "morning-practice" (the server checks and makes it unique). */
const slugOf = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 72);

const pick = (course: AdminCourse): Draft => ({
  title: course.title,
  slug: course.slug,
  summary: course.summary,
  coverUrl: course.coverUrl,
  access: course.access,
  published: course.published,
});

/** The course's own settings: title, address, summary, cover, who may open it, published or draft. */
export function CourseDetailsForm({
  course,
  onUnsaved,
}: {
  course: AdminCourse;
  /** Whether something typed here is not saved yet (the editor guards leaving with it). */
  onUnsaved: (unsaved: boolean) => void;
}) {
  const ids = useId();
  const update = useUpdateCourse(course.id);
  const notices = useNotices();
  const [draft, setDraft] = useState<Draft>(() => pick(course));
  const saved = pick(course);
  const changedKeys = (Object.keys(saved) as Array<keyof Draft>).filter((key) => draft[key] !== saved[key]);
  const unsaved = changedKeys.length > 0;
  useEffect(() => onUnsaved(unsaved), [onUnsaved, unsaved]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = Object.fromEntries(changedKeys.map((key) => [key, draft[key]]));
    try {
      const after = await update.mutateAsync(body);
      setDraft(pick(after));
      notices.success(
        body.published === true
          ? `“${after.title}” is published.`
          : body.published === false
            ? `“${after.title}” is a draft again.`
            : 'Course saved.',
      );
    } catch (error) {
      notices.error('The course was not saved.', { detail: (error as Error).message });
    }
  };

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Course settings</h2>
      <form onSubmit={submit} className="mt-5 grid gap-5 lg:grid-cols-2">
        <div className="space-y-5">
          <TextField
            label="Title"
            value={draft.title}
            maxLength={160}
            required
            onChange={(e) => set('title', e.target.value)}
          />
          <div>
            <label htmlFor={`${ids}-slug`} className="mb-1.5 block text-sm font-medium text-stone-300">
              Address
            </label>
            <div className="flex items-stretch gap-2">
              <span className="flex items-center rounded-lg bg-white/5 px-3 text-sm text-stone-400">
                /courses/
              </span>
              <input
                id={`${ids}-slug`}
                className={INPUT_CLASS}
                value={draft.slug}
                maxLength={80}
                pattern="[a-z0-9]+(-[a-z0-9]+)*"
                title="Lower-case letters, digits and single hyphens"
                onChange={(e) => set('slug', e.target.value.toLowerCase())}
              />
            </div>
            <button
              type="button"
              className="mt-1 text-xs font-semibold text-accent-300 hover:text-accent-400"
              onClick={() => set('slug', slugOf(draft.title) || draft.slug)}
            >
              Make it from the title
            </button>
          </div>
          <div>
            <label htmlFor={`${ids}-summary`} className="mb-1.5 block text-sm font-medium text-stone-300">
              Summary
            </label>
            <textarea
              id={`${ids}-summary`}
              className={`${INPUT_CLASS} min-h-24`}
              maxLength={600}
              value={draft.summary}
              onChange={(e) => set('summary', e.target.value)}
              placeholder="One or two sentences: what the course gives. Search engines and link previews show it."
            />
          </div>
        </div>
        <div className="space-y-5">
          <CoverPicker value={draft.coverUrl} onChange={(url) => set('coverUrl', url)} />
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-stone-300">Who may open it</legend>
            <div className="space-y-2">
              {COURSE_ACCESS.map((access) => (
                <label
                  key={access}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border border-white/10 p-3 text-sm hover:bg-white/5"
                >
                  <input
                    type="radio"
                    name={`${ids}-access`}
                    className="mt-0.5 accent-amber-400"
                    checked={draft.access === access}
                    onChange={() => set('access', access)}
                  />
                  <span>
                    <span className="block font-semibold text-white">{COURSE_ACCESS_LABELS[access]}</span>
                    <span className="text-stone-400">{ACCESS_HINTS[access]}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <CheckboxField
            label="Published: listed on /courses and open as set above"
            checked={draft.published}
            onChange={(v) => set('published', v)}
          />
        </div>
        <div className="flex flex-wrap items-center gap-3 lg:col-span-2">
          <Button type="submit" disabled={changedKeys.length === 0 || update.isPending}>
            {update.isPending ? 'Saving…' : 'Save course'}
          </Button>
          {changedKeys.length > 0 && (
            <Button variant="ghost" onClick={() => setDraft(saved)}>
              Undo changes
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
