import { Navigate, Outlet, useLocation } from 'react-router';
import { readSession } from '../lib/auth-token';

/**
 * Convenience only: these keep people away from screens they cannot use. The server checks
 * the token and role on every call regardless.
 */
export function RequireUser() {
  const location = useLocation();
  if (!readSession()) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

export function RequireAdmin() {
  const location = useLocation();
  if (readSession()?.role !== 'admin')
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
