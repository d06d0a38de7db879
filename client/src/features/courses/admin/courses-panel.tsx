import { COURSE_ACCESS_LABELS } from '@common/courses';
import { type FormEvent, useState } from 'react';
import { useConfirmLeave } from '../../../components/console/leave-guard';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { STACKED_CELL, STACKED_ROW } from '../../../components/ui/stacked-table';
import { TextField } from '../../../components/ui/text-field';
import { useCourseList, useCreateCourse } from './api';
import { CourseEditor } from './course-editor';
import { CoursesSettingsCard } from './courses-settings-card';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });
const numbers = new Intl.NumberFormat();

/** The console's Courses section: the list with its numbers, a new course, the upgrade offer; or one course's editor. */
export function CoursesPanel() {
  const [editing, setEditing] = useState<string | null>(null);
  const confirmLeave = useConfirmLeave();
  if (editing)
    return (
      <CourseEditor
        courseId={editing}
        onClose={async () => {
          if (await confirmLeave()) setEditing(null);
        }}
      />
    );
  return <CourseList onEdit={setEditing} />;
}

function CourseList({ onEdit }: { onEdit: (id: string) => void }) {
  const list = useCourseList();
  const create = useCreateCourse();
  const notices = useNotices();
  const [title, setTitle] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const course = await create.mutateAsync(title);
      setTitle('');
      notices.success(`Created “${course.title}” as a draft.`);
      onEdit(course.id);
    } catch (error) {
      notices.error('The course was not created.', { detail: (error as Error).message });
    }
  };

  return (
    <section aria-labelledby="courses-heading" className="space-y-6">
      <div>
        <h1 id="courses-heading" className="text-2xl font-semibold text-white sm:text-3xl">
          Courses
        </h1>
        <p className="mt-2 text-stone-300">
          What members join for: build courses, choose who may open them, follow how they do.
        </p>
      </div>

      <Card>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            label="New course title"
            className="flex-1"
            value={title}
            maxLength={160}
            onChange={(event) => setTitle(event.target.value)}
            placeholder="e.g. Morning Practice"
          />
          <Button type="submit" disabled={!title.trim() || create.isPending}>
            {create.isPending ? 'Creating…' : 'Create course'}
          </Button>
        </form>
      </Card>

      <Card className="!p-0 overflow-hidden">
        {list.isPending ? (
          <p className="p-6 text-stone-300">Loading…</p>
        ) : list.isError ? (
          <p role="alert" className="p-6 text-red-200">
            The courses could not be loaded: {list.error.message}
          </p>
        ) : list.data.length === 0 ? (
          <p className="p-6 text-stone-300">No course yet. Give the first one a title above.</p>
        ) : (
          // On a phone each course is a card (its columns would not fit 390 px); a table from md up.
          <div className="p-3 md:p-0">
            <table className="block w-full text-left text-sm md:table">
              <caption className="sr-only">Courses with their members’ numbers</caption>
              <thead className="hidden border-b border-white/10 text-xs uppercase tracking-wider text-stone-400 md:table-header-group">
                <tr>
                  <th scope="col" className="px-5 py-3 font-semibold">
                    Course
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    Lessons
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    Started
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    Completed
                  </th>
                  <th scope="col" className="px-5 py-3">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="block md:table-row-group">
                {list.data.map((course) => (
                  <tr key={course.id} data-testid="course-row" className={STACKED_ROW}>
                    <td className="block pb-2 md:table-cell md:px-5 md:py-3 md:align-middle">
                      <p className="font-semibold break-words text-white">{course.title}</p>
                      <p className="text-xs break-all text-stone-400">
                        /courses/{course.slug} · {COURSE_ACCESS_LABELS[course.access]}
                      </p>
                    </td>
                    <td data-label="Status" className={STACKED_CELL}>
                      <span
                        className={`rounded-full px-2.5 py-1 text-xs font-semibold ${
                          course.published
                            ? 'bg-emerald-500/20 text-emerald-200'
                            : 'bg-white/10 text-stone-300'
                        }`}
                      >
                        {course.published ? 'Published' : 'Draft'}
                      </span>
                    </td>
                    <td data-label="Lessons" className={`${STACKED_CELL} tabular-nums md:text-right`}>
                      {course.lessonCount}
                    </td>
                    <td data-label="Started" className={`${STACKED_CELL} tabular-nums md:text-right`}>
                      {numbers.format(course.started)}
                    </td>
                    <td data-label="Completed" className={`${STACKED_CELL} tabular-nums md:text-right`}>
                      <span className="text-right">
                        {numbers.format(course.completed)}
                        <span className="block text-xs text-stone-400">
                          {course.completionRate === null
                            ? '—'
                            : `${percent.format(course.completionRate)} of starters`}
                        </span>
                      </span>
                    </td>
                    <td className="block pt-2 md:table-cell md:px-5 md:py-3 md:text-right md:align-middle">
                      <Button
                        variant="secondary"
                        className="w-full md:w-auto"
                        onClick={() => onEdit(course.id)}
                      >
                        Edit<span className="sr-only"> {course.title}</span>
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="border-t border-white/10 px-5 py-3 text-xs text-stone-400">
          Members only: administrators trying a course are not counted. Completed means every lesson done.
        </p>
      </Card>

      <CoursesSettingsCard />
    </section>
  );
}
