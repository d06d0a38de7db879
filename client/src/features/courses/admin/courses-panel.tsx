import { COURSE_ACCESS_LABELS } from '@common/courses';
import { type FormEvent, useState } from 'react';
import { useConfirmLeave } from '../../../components/console/leave-guard';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
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
          <div className="overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Courses with their members’ numbers</caption>
              <thead className="border-b border-white/10 text-xs uppercase tracking-wider text-stone-400">
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
              <tbody className="divide-y divide-white/5">
                {list.data.map((course) => (
                  <tr key={course.id} data-testid="course-row">
                    <td className="px-5 py-3">
                      <p className="font-semibold text-white">{course.title}</p>
                      <p className="text-xs text-stone-400">
                        /courses/{course.slug} · {COURSE_ACCESS_LABELS[course.access]}
                      </p>
                    </td>
                    <td className="px-3 py-3">
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
                    <td className="px-3 py-3 text-right tabular-nums">{course.lessonCount}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{numbers.format(course.started)}</td>
                    <td className="px-3 py-3 text-right tabular-nums">
                      {numbers.format(course.completed)}
                      <span className="block text-xs text-stone-400">
                        {course.completionRate === null
                          ? '—'
                          : `${percent.format(course.completionRate)} of starters`}
                      </span>
                    </td>
                    <td className="px-5 py-3 text-right">
                      <Button variant="secondary" onClick={() => onEdit(course.id)}>
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
