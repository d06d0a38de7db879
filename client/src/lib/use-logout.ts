import type { LogoutResponse } from '@common/schemas/auth';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from './api-client';
import { forgetToken } from './auth-token';

/** Forgets the token and any cached data, then goes to the home page (the session is over). */
export function useForgetSession() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    forgetToken();
    queryClient.clear();
    navigate('/', { replace: true });
  };
}

/**
 * Logout: ends this session on the server (so a copy of the token is useless from now on), and
 * forgets it here at once whatever the server answers, as the spec's Logout does.
 */
export function useLogout() {
  const forget = useForgetSession();
  return () => {
    // api() reads the token before its first await, so clearing it just after is safe.
    void api<LogoutResponse>('/api/auth/logout', { method: 'POST', auth: true }).catch(() => undefined);
    forget();
  };
}
