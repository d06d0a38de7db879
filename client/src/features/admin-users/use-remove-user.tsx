import type { PublicUser } from '@common/schemas/user';
import { useConfirm } from '../../components/console/confirm-dialog';
import { useNotices } from '../../components/console/notices';
import { readSession } from '../../lib/auth-token';
import { isManagedByStripe } from '../payments/admin/billing-note';
import { useDeleteUser } from './api';

export const DELETE_CONFIRMATION = 'Are you sure you want to delete this user? This action cannot be undone.';

/**
 * Deletes a row's user, once the administrator confirmed: what they lose (an administrator the
 * console), and that a Stripe subscription is cancelled first. One's own account is not deleted here.
 */
export function useRemoveUser() {
  const confirm = useConfirm();
  const notices = useNotices();
  const remove = useDeleteUser();

  async function destroy(user: PublicUser) {
    if (user._id === readSession()?.userId) {
      notices.error('You cannot delete your own account here.', {
        detail: 'Another administrator can do it.',
      });
      return;
    }
    const sure = await confirm({
      title: user.role === 'admin' ? 'Delete this administrator?' : 'Delete this user?',
      message: (
        <>
          <p>
            <strong className="text-white">{user.name}</strong> ({user.email})
            {user.role === 'admin' ? ' is an administrator: they lose the console and their account. ' : ' '}
          </p>
          {isManagedByStripe(user) && (
            <p>
              They pay through Stripe: their subscription is cancelled at once, with no refund for the rest of
              the period. If Stripe cannot be reached, nothing is deleted.
            </p>
          )}
          <p>{DELETE_CONFIRMATION}</p>
        </>
      ),
      confirmLabel: user.role === 'admin' ? 'Delete administrator' : 'Delete user',
      destructive: true,
    });
    if (!sure) return;
    try {
      await remove.mutateAsync(user._id);
    } catch (failure) {
      notices.error('Failed to delete user.', { detail: (failure as Error).message });
    }
  }

  return { destroy, isPending: remove.isPending };
}
