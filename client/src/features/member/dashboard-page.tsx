import { SITE_MARKS } from '@common/site';
import { Link } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useLogout } from '../../lib/use-logout';
import { COMPACT_NAV_LINK } from '../courses/components/course-nav';
import { MemberCourses } from '../courses/components/member-courses';
import { MembershipCard } from '../payments/components/membership-card';

export function DashboardPage() {
  usePageMeta({ title: 'Your Dashboard', description: `Your ${SITE_MARKS.name} member dashboard.` });
  const logout = useLogout();
  return (
    <PageShell
      nav={
        <>
          <Link to="/courses" className={`${COMPACT_NAV_LINK} max-sm:hidden`}>
            Courses
          </Link>
          <Link to="/account" className={COMPACT_NAV_LINK}>
            Account
          </Link>
          <Button variant="secondary" className="max-sm:px-3" onClick={logout}>
            Logout
          </Button>
        </>
      }
    >
      <div className="mb-auto w-full max-w-5xl self-stretch sm:self-center">
        <Card className="text-center">
          <h1 className="font-display text-3xl text-white">Your Dashboard</h1>
          <p className="mt-4 text-lg text-stone-200">
            This is your user dashboard. Your journey continues here.
          </p>
        </Card>
        <MembershipCard />
        <MemberCourses />
      </div>
    </PageShell>
  );
}
