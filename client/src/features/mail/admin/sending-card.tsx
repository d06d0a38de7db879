import { type FormEvent, useEffect, useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { useBulkSettings, useMarkComplaint, useSaveBulkSettings, useStoppedAddresses } from '../api';

const REASON_WORDS = { bounce: 'Bounced', complaint: 'Complaint' } as const;

/**
 * How fast mail to members goes out, and the addresses it no longer goes to (a hard bounce, or a
 * complaint the owner marked), each with why. Password resets and receipts are never held back.
 */
export function SendingCard() {
  const settings = useBulkSettings();
  const save = useSaveBulkSettings();
  const stops = useStoppedAddresses();
  const complain = useMarkComplaint();
  const notices = useNotices();
  const [perMinute, setPerMinute] = useState('');
  const [email, setEmail] = useState('');

  useEffect(() => {
    if (settings.data) setPerMinute(String(settings.data.perMinute));
  }, [settings.data]);

  async function onSave(event: FormEvent) {
    event.preventDefault();
    try {
      await save.mutateAsync({ perMinute: Number(perMinute) });
      notices.success('Sending pace saved: it applies from the next batch.');
    } catch (error) {
      notices.error(`Not saved: ${(error as Error).message}`);
    }
  }

  async function onComplaint(event: FormEvent) {
    event.preventDefault();
    try {
      const answer = await complain.mutateAsync(email);
      notices.success(answer.message, { seconds: 5 });
      setEmail('');
    } catch (error) {
      notices.error(`Not marked: ${(error as Error).message}`);
    }
  }

  return (
    <Card className="sm:p-6" aria-labelledby="sending-heading">
      <h2 id="sending-heading" className="text-lg font-semibold text-white">
        Sending
      </h2>
      <form onSubmit={onSave} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Messages per minute"
          type="number"
          min={1}
          max={6000}
          value={perMinute}
          onChange={(e) => setPerMinute(e.target.value)}
          hint="Ask your mail provider for its limit. Password resets do not wait behind announcements."
          className="sm:w-64"
        />
        <Button type="submit" variant="secondary" disabled={save.isPending || !perMinute}>
          Save pace
        </Button>
      </form>
      <h3 className="mt-6 text-base font-semibold text-white">Addresses that get no more announcements</h3>
      {stops.data?.length === 0 && <p className="mt-2 text-sm text-stone-400">None.</p>}
      {stops.data && stops.data.length > 0 && (
        <ul className="mt-2 divide-y divide-white/10 rounded-xl border border-white/10 bg-black/20 text-sm">
          {stops.data.map((stop) => (
            <li key={stop.email} className="px-4 py-2">
              <p className="break-words text-stone-100">
                {stop.email} · {REASON_WORDS[stop.reason]}
              </p>
              <p className="break-words text-stone-300">
                {stop.detail} ({new Date(stop.at).toLocaleString()})
              </p>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onComplaint} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Mark a complaint (the member reported spam)"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="sm:flex-1"
        />
        <Button type="submit" variant="secondary" disabled={complain.isPending || !email}>
          Stop bulk mail
        </Button>
      </form>
    </Card>
  );
}
