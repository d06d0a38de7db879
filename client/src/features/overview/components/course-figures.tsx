import type { LessonFigures } from '@common/schemas/figures';
import { useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { downloadFile } from '../../../lib/download-file';
import { useCourseFigures, useCourseFiguresList } from '../api';
import { ChartFigure, FigureTable } from './chart-figure';
import { BarChart } from './charts';
import { FiguresError } from './members-figures';

const percent = (part: number | null, whole: number | null) =>
  part === null || !whole ? '—' : `${Math.round((part / whole) * 100)}%`;

/** Each course's members, and one course's lesson-by-lesson drop-off (docs/figures.md, "Courses"). */
export function CoursesCard() {
  const { data, error } = useCourseFiguresList();
  const [chosen, setChosen] = useState<string | null>(null);
  if (error) return <FiguresError message={error.message} />;
  if (!data || data.length === 0) return null;
  return (
    <section aria-labelledby="course-figures-heading" className="mt-8">
      <h3 id="course-figures-heading" className="text-base font-semibold text-white">
        Courses
      </h3>
      <FigureTable
        caption="Members per course"
        columns={[
          {
            label: 'Course',
            cell: (row: (typeof data)[number]) => (
              <button
                type="button"
                aria-pressed={chosen === row.courseId}
                onClick={() => setChosen(row.courseId)}
                className="text-left text-accent-300 underline-offset-2 hover:underline"
              >
                {row.title}
              </button>
            ),
          },
          { label: 'Enrolled', cell: (row) => row.enrolled, numeric: true },
          { label: 'Started', cell: (row) => row.started, numeric: true },
          { label: 'Completed', cell: (row) => row.completed, numeric: true },
        ]}
        rows={data}
        rowKey={(row) => row.courseId}
      />
      {chosen && <CourseDropOff courseId={chosen} />}
    </section>
  );
}

const LESSON_COLUMNS = [
  { label: 'Lesson', cell: (lesson: LessonFigures) => lesson.title },
  { label: 'Could reach', cell: (lesson: LessonFigures) => lesson.open, numeric: true },
  { label: 'Reached', cell: (lesson: LessonFigures) => lesson.reached, numeric: true },
  {
    label: 'Watched through',
    cell: (lesson: LessonFigures) => percent(lesson.watchedThrough, lesson.played),
    numeric: true,
  },
];

function CourseDropOff({ courseId }: { courseId: string }) {
  const { data } = useCourseFigures(courseId);
  const notices = useNotices();
  if (!data) return null;
  const download = () =>
    downloadFile(`/api/admin/figures/courses/${courseId}/members.csv`, 'course-members.csv').catch(
      (error: Error) => notices.error('Could not download the members.', { detail: error.message }),
    );
  return (
    <div className="mt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-stone-200">{data.title}: lesson by lesson</h4>
        <button
          type="button"
          onClick={download}
          className="rounded-lg border border-white/15 px-2.5 py-1 text-xs text-stone-200 hover:bg-white/10"
        >
          Download members (CSV)
        </button>
      </div>
      <ChartFigure
        title="Members who reached each lesson (lessons the drip has not opened are left out)"
        chart={
          <BarChart
            labels={data.lessons.map((lesson) => lesson.title)}
            series={[
              { label: 'Could reach', values: data.lessons.map((lesson) => lesson.open), color: '#7dd3fc' },
              { label: 'Reached', values: data.lessons.map((lesson) => lesson.reached), color: '#fbbf24' },
            ]}
          />
        }
        table={
          <FigureTable
            caption={`${data.title}: members per lesson`}
            columns={LESSON_COLUMNS}
            rows={data.lessons}
            rowKey={(lesson) => lesson.lessonId}
          />
        }
      />
    </div>
  );
}
