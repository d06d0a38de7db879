import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { SESSION_ENDED_EVENT } from '../lib/api-client';
import { queryClient } from '../lib/query-client';

/** Around the signed-in screens: loaded with the first of them, never by a public page. */
export function SignedInLayout() {
  useSignInAgainWhenSessionEnds();
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}

/** A session ended on the server (elsewhere, or by an administrator) leads to the sign-in page. */
function useSignInAgainWhenSessionEnds(): void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    const onEnded = () => {
      queryClient.clear();
      navigate('/login', { replace: true, state: { from: pathname } });
    };
    window.addEventListener(SESSION_ENDED_EVENT, onEnded);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, onEnded);
  }, [navigate, pathname]);
}
