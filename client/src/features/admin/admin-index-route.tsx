import { Navigate } from 'react-router';

/** /admin on its own opens the console. */
export function Component() {
  return <Navigate to="/admin/dashboard" replace />;
}
