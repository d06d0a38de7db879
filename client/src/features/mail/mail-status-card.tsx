import { formatMoment } from '@common/dates';
import type { MailQueueMessage } from '@common/schemas/mail';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormMessage } from '../../components/ui/form-message';
import { useMailStatus, useRetryMail } from './api';

const time = (iso: string) => formatMoment(iso);
/** The newest few are enough to act on; the counts say how many there are in all. */
const SHOWN = 5;

/**
 * Outgoing mail on the console's overview (the Dashboard section): is it going out, what waits,
 * what failed and why.
 */
export function MailStatusCard() {
  const { data, isError } = useMailStatus();
  const retry = useRetryMail();
  const retrying = retry.isPending ? retry.variables.id : null;
  const outcome = retry.isSuccess
    ? { ok: true, text: `Sending the mail to ${retry.variables.to} now.` }
    : retry.isError
      ? { ok: false, text: `Could not retry: ${retry.error.message}` }
      : null;

  const shown = (data?.messages ?? []).slice(0, SHOWN);
  return (
    <Card className="mt-8 sm:p-6" aria-labelledby="mail-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="mail-heading" className="text-lg font-semibold text-white">
          Outgoing mail
        </h2>
        {data && (
          <p className="text-sm text-stone-400">
            {data.mode === 'smtp'
              ? 'Sent through the mail server in SMTP_URL.'
              : 'No SMTP_URL: each message is written to the outbox folder.'}
          </p>
        )}
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-3">
        <Fact term="Sent today" value={data?.sentToday} testId="mail-sent-today" />
        <Fact term="Waiting" value={data?.waiting} testId="mail-waiting" />
        <Fact term="Failed" value={data?.failed} testId="mail-failed" />
      </dl>
      {isError && (
        <p className="mt-4 text-sm text-stone-400">Could not check the mail queue. Retrying shortly…</p>
      )}
      {data?.lastError && (
        <p className="mt-4 break-words text-sm text-red-200" data-testid="mail-last-error">
          <span className="font-semibold">Last problem</span> ({time(data.lastError.at)}):{' '}
          {data.lastError.message}
        </p>
      )}
      {shown.length > 0 && (
        <ul className="mt-4 divide-y divide-white/10 rounded-xl border border-white/10 bg-black/20">
          {shown.map((message) => (
            <li key={message.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0 text-sm">
                <p className="truncate text-stone-100">{message.subject}</p>
                <p className="truncate text-stone-300">To {message.to}</p>
                <p className="text-xs text-stone-400">{describe(message)}</p>
              </div>
              {message.state === 'waiting' && (
                <Button
                  variant="secondary"
                  className="px-3 py-1.5"
                  disabled={retrying !== null}
                  onClick={() => retry.mutate(message)}
                >
                  {retrying === message.id ? 'Retrying...' : 'Retry now'}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {outcome && (
        <div className="mt-3">
          <FormMessage tone={outcome.ok ? 'success' : 'error'}>{outcome.text}</FormMessage>
        </div>
      )}
    </Card>
  );
}

function describe(message: MailQueueMessage): string {
  const tries = `${message.attempts} attempt${message.attempts === 1 ? '' : 's'}`;
  if (message.state === 'sending') return `Being sent now (${tries} so far).`;
  if (message.state === 'failed') return `Failed: ${message.lastError ?? 'not delivered in time.'}`;
  const next = message.nextAttemptAt ? ` Next try ${time(message.nextAttemptAt)}.` : '';
  return `Waiting, ${tries}.${next} Expires ${time(message.expiresAt)}.`;
}

function Fact({ term, value, testId }: { term: string; value: number | undefined; testId: string }) {
  return (
    <div className="rounded-xl border border-white/10 bg-black/20 px-4 py-3">
      <dt className="text-xs font-medium uppercase tracking-wider text-stone-400">{term}</dt>
      <dd className="mt-1 font-mono text-lg text-stone-100 tabular-nums" data-testid={testId}>
        {value ?? '—'}
      </dd>
    </div>
  );
}
