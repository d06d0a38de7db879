import { PUBLIC_PAGES } from '@common/public-pages';
import { Link } from 'react-router';
import { usePageMeta } from '../../app/page-meta';
import { PageShell } from '../../app/page-shell';
import { Card } from '../../components/ui/card';

const COURSES = [
  { title: 'Foundations', text: 'Build the daily habits that everything else stands on.', tier: 'Free' },
  {
    title: 'Blueprint',
    text: 'Map where you are, where you want to be, and the path between.',
    tier: 'Free',
  },
  {
    title: 'The Architect Programme',
    text: 'Twelve weeks of guided work with the full community.',
    tier: 'Architect Tier',
  },
];

export function CoursesPage() {
  usePageMeta(PUBLIC_PAGES.courses);
  return (
    <PageShell
      nav={
        <Link to="/login" className="rounded-lg px-3 py-2 text-stone-200 hover:bg-white/10">
          Sign In
        </Link>
      }
    >
      <div className="w-full max-w-4xl">
        <h1 className="text-center font-display text-4xl text-white">Courses</h1>
        <p className="mt-3 text-center text-stone-300">Programmes open to members.</p>
        <div className="mt-10 grid gap-5 md:grid-cols-3">
          {COURSES.map((course) => (
            <Card key={course.title} className="flex flex-col">
              <p className="text-xs font-semibold uppercase tracking-widest text-accent-400">{course.tier}</p>
              <h2 className="mt-2 text-xl font-semibold text-white">{course.title}</h2>
              <p className="mt-2 flex-1 text-sm text-stone-300">{course.text}</p>
              <Link to="/join" className="mt-6 text-sm font-semibold text-accent-300 hover:text-accent-400">
                Join to enrol →
              </Link>
            </Card>
          ))}
        </div>
      </div>
    </PageShell>
  );
}
