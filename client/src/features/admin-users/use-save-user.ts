import type { UpdateUserBody } from '@common/schemas/admin-users';
import type { PublicUser } from '@common/schemas/user';
import { useConfirm } from '../../components/console/confirm-dialog';
import { useNotices } from '../../components/console/notices';
import { ApiError } from '../../lib/api-client';
import { stripeTierWarning } from '../payments/admin/billing-note';
import { useUpdateUser } from './api';

/**
 * Saves a row's edit. The tier of a member Stripe bills changes only past the warning, and the
 * server is told it was seen (`confirmManagedByStripe`), since it refuses such a change otherwise;
 * when Stripe began managing the tier after the list was loaded, the server's own warning is asked.
 */
export function useSaveUser(onSaved: () => void) {
  const confirm = useConfirm();
  const notices = useNotices();
  const update = useUpdateUser();

  const confirmStripeTier = (message: string) =>
    confirm({ title: 'Change a tier Stripe manages?', message, confirmLabel: 'Change the tier' });

  async function send(id: string, changes: UpdateUserBody): Promise<void> {
    try {
      await update.mutateAsync({ id, changes });
      onSaved();
    } catch (failure) {
      if (
        failure instanceof ApiError &&
        failure.code === 'TIER_MANAGED_BY_STRIPE' &&
        !changes.confirmManagedByStripe
      ) {
        if (await confirmStripeTier(failure.message))
          await send(id, { ...changes, confirmManagedByStripe: true });
        return;
      }
      notices.error(`Failed to update user: ${(failure as Error).message}`);
    }
  }

  async function save(user: PublicUser, changes: UpdateUserBody): Promise<void> {
    const warning = stripeTierWarning(user, changes.membershipTier);
    if (warning && !(await confirmStripeTier(warning))) return;
    await send(user._id, warning ? { ...changes, confirmManagedByStripe: true } : changes);
  }

  return { save, isPending: update.isPending };
}
