import { Link } from 'react-router';
import { NAV_LINK_CLASS } from '../../../app/page-shell';
import { readSession } from '../../../lib/auth-token';
import { useStoredToken } from '../../../lib/use-stored-token';

/** The course pages' top bar: who is signed in goes to their dashboard and account, anyone else signs in. */
export function CourseNav({ showCourses = false }: { showCourses?: boolean }) {
  const session = readSession(useStoredToken());
  return (
    <>
      {showCourses && (
        <Link to="/courses" className={NAV_LINK_CLASS}>
          Courses
        </Link>
      )}
      {session ? (
        <>
          <Link to={session.role === 'admin' ? '/admin/dashboard' : '/dashboard'} className={NAV_LINK_CLASS}>
            {session.role === 'admin' ? 'Console' : 'Dashboard'}
          </Link>
          <Link to="/account" className={NAV_LINK_CLASS}>
            Account
          </Link>
        </>
      ) : (
        <>
          <Link to="/login" className={NAV_LINK_CLASS}>
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
