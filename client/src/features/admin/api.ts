import type { ReauthResponse } from '@common/schemas/reauth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { rememberProof } from '../../lib/reauth-proof';

/** Checks the administrator's password; the proof it answers is remembered for the changes that need it. */
export function useConfirmPassword() {
  return useMutation({
    mutationFn: (password: string) =>
      api<ReauthResponse>('/api/auth/reauth', { method: 'POST', body: { password }, auth: true }),
    onSuccess: (answer) => rememberProof(answer.proof, answer.expiresAt),
  });
}
