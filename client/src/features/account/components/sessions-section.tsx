import { formatMoment } from '@common/dates';
import type { SessionInfo } from '@common/schemas/account';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { useForgetSession } from '../../../lib/use-logout';
import { useSignOutEverywhere } from '../api';
import { describeDevice } from '../describe-device';
import { errorText } from '../error-text';
import { ACTION_ROW, Section } from './section';

const when = (iso: string) => formatMoment(iso);

/** Where the member is signed in, and the way out of all of it at once (a lost phone, a shared computer). */
export function SessionsSection({ sessions }: { sessions: SessionInfo[] }) {
  const forget = useForgetSession();
  const signOut = useSignOutEverywhere();
  const onClick = () => signOut.mutate(undefined, { onSuccess: forget });
  return (
    <Section
      title="Where you are signed in"
      intro="Lost a phone or used a shared computer? Sign out everywhere, this browser included."
    >
      <ul className="divide-y divide-white/10 rounded-xl border border-white/10 bg-black/20">
        {sessions.map((session) => (
          <li
            key={session.id}
            className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <span className="text-sm font-medium text-white">
              {describeDevice(session.userAgent)}
              {session.current && (
                <span className="ml-2 rounded-full bg-emerald-400/15 px-2 py-0.5 text-xs font-medium text-emerald-300 ring-1 ring-inset ring-emerald-400/30">
                  This browser
                </span>
              )}
            </span>
            <span className="text-xs text-stone-400">
              {session.ip} · last seen {when(session.lastSeenAt)}
            </span>
          </li>
        ))}
      </ul>
      {signOut.isError && (
        <div className="mt-4">
          <FormMessage tone="error">
            {errorText(signOut.error, 'Could not sign you out everywhere')}
          </FormMessage>
        </div>
      )}
      <div className={`mt-5 ${ACTION_ROW}`}>
        <Button variant="secondary" onClick={onClick} disabled={signOut.isPending || signOut.isSuccess}>
          Sign out everywhere
        </Button>
      </div>
    </Section>
  );
}
