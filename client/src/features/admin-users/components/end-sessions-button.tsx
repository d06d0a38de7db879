import type { PublicUser } from '@common/schemas/user';
import { useEffect } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useEndSessions } from '../api';

const SHOWN_FOR_MS = 4000;

/**
 * "Sign out": ends every session of one user (a member who lost a phone, an account that must be
 * shut out now). Kept apart from the row's own actions, with its result said in place.
 */
export function EndSessionsButton({ user, className }: { user: PublicUser; className: string }) {
  const end = useEndSessions();
  const confirm = useConfirm();
  const { reset, isSuccess, isError } = end;
  useEffect(() => {
    if (!isSuccess && !isError) return;
    const timer = setTimeout(reset, SHOWN_FOR_MS);
    return () => clearTimeout(timer);
  }, [isSuccess, isError, reset]);

  const onClick = async () => {
    const sure = await confirm({
      title: 'Sign out everywhere?',
      message: `${user.name} (${user.email}) will be signed out on every browser and device.`,
      confirmLabel: 'Sign out',
    });
    if (sure) end.mutate(user._id);
  };
  const label = isSuccess ? 'Signed out' : isError ? 'Failed' : 'Sign out';
  return (
    <>
      <button
        type="button"
        onClick={() => void onClick()}
        disabled={end.isPending || isSuccess}
        // The visible words lead the name, as speech and voice control expect.
        aria-label={`${isError ? 'Failed to sign out' : label} ${user.name} everywhere`}
        title={isError ? (end.error as Error).message : 'Sign out on every browser and device'}
        className={`${className} ml-1 text-stone-300 hover:bg-white/10`}
      >
        {label}
      </button>
      <span role="status" className="sr-only">
        {isSuccess ? end.data.message : isError ? (end.error as Error).message : ''}
      </span>
    </>
  );
}
