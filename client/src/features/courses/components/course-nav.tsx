import { Link } from 'react-router';
import { NAV_LINK_CLASS } from '../../../components/page/page-shell';

/** Closer together on a phone, so the brand and the links fit one line. */
export const COMPACT_NAV_LINK = `${NAV_LINK_CLASS} max-sm:px-2.5`;

import { readSession } from '../../../lib/auth-token';
import { useStoredToken } from '../../../lib/use-stored-token';

/** The course pages' top bar: who is signed in goes to their dashboard and account, anyone else signs in. */
export function CourseNav({ showCourses = false }: { showCourses?: boolean }) {
  const session = readSession(useStoredToken());
  return (
    <>
      {showCourses && (
        <Link to="/courses" className={`${COMPACT_NAV_LINK} max-sm:hidden`}>
          Courses
        </Link>
      )}
      {session ? (
        <>
          <Link
            to={session.role === 'admin' ? '/admin/dashboard' : '/dashboard'}
            className={COMPACT_NAV_LINK}
          >
            {session.role === 'admin' ? 'Console' : 'Dashboard'}
          </Link>
          <Link to="/account" className={COMPACT_NAV_LINK}>
            Account
          </Link>
        </>
      ) : (
        <>
          <Link to="/login" className={COMPACT_NAV_LINK}>
            Sign In
          </Link>
          <Link to="/join" className={`${NAV_LINK_CLASS} hidden sm:inline-flex`}>
            Join
          </Link>
        </>
      )}
    </>
  );
}

/** Whether someone is signed in, for rendering (null while a pre-rendered page is taken over). */
export function useSignedIn(): boolean {
  return readSession(useStoredToken()) !== null;
}
