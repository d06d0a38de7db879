import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { clearToken } from './auth-token';

/** Logout: forget the token and any cached data, then go to the home page. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    clearToken();
    queryClient.clear();
    navigate('/', { replace: true });
  };
}
