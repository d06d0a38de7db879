import { QueryClient } from '@tanstack/react-query';

/**
 * The one react-query cache, for the signed-in screens only (the console and the member
 * dashboard). Public pages never import it, so react-query is not in their JavaScript.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } },
});
