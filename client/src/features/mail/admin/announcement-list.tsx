import type { AnnouncementView } from '@common/schemas/mail-members';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useAnnouncements, useCancelAnnouncement } from '../api';

const numberFormat = new Intl.NumberFormat();
const time = (iso: string) => new Date(iso).toLocaleString();

const STATE_WORDS: Record<AnnouncementView['state'], string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

/** Every announcement with its progress while it goes out: queued, sent, failed (and why), unsubscribed. */
export function AnnouncementList() {
  const { data, isError } = useAnnouncements();
  const cancel = useCancelAnnouncement();
  const confirm = useConfirm();
  const notices = useNotices();

  async function onCancel(announcement: AnnouncementView) {
    const sure = await confirm({
      title: 'Stop this announcement?',
      message: `Members who did not get “${announcement.subject}” yet will not get it. What was sent stays sent.`,
      confirmLabel: 'Stop sending',
      destructive: true,
    });
    if (!sure) return;
    try {
      await cancel.mutateAsync(announcement.id);
      notices.success('Announcement stopped.');
    } catch (error) {
      notices.error(`Could not stop it: ${(error as Error).message}`);
    }
  }

  return (
    <Card className="sm:p-6" aria-labelledby="announcements-heading">
      <h2 id="announcements-heading" className="text-lg font-semibold text-white">
        Announcements
      </h2>
      {isError && (
        <p className="mt-3 text-sm text-stone-400">Could not read the announcements. Retrying shortly…</p>
      )}
      {data?.length === 0 && (
        <p className="mt-3 text-sm text-stone-400">None yet: write the first one above.</p>
      )}
      <ul className="mt-4 space-y-3">
        {data?.map((announcement) => {
          const done = announcement.sent + announcement.failed + announcement.unsubscribed;
          const share = announcement.recipients
            ? Math.min(100, Math.round((done / announcement.recipients) * 100))
            : 100;
          return (
            <li
              key={announcement.id}
              className="rounded-xl border border-white/10 bg-black/20 p-4"
              data-testid="announcement"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="break-words font-medium text-stone-100">{announcement.subject}</p>
                  <p className="text-sm text-stone-300">
                    {announcement.segmentLabel} · {STATE_WORDS[announcement.state]}
                    {announcement.state === 'scheduled' ? ` for ${time(announcement.scheduledAt)}` : ''}
                    {announcement.finishedAt ? ` ${time(announcement.finishedAt)}` : ''}
                  </p>
                </div>
                {(announcement.state === 'scheduled' || announcement.state === 'sending') && (
                  <Button variant="secondary" className="px-3 py-1.5" onClick={() => onCancel(announcement)}>
                    Stop
                  </Button>
                )}
              </div>
              <div
                className="mt-3 h-2 overflow-hidden rounded-full bg-white/10"
                role="progressbar"
                aria-label={`${announcement.subject}: progress`}
                aria-valuenow={share}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <div className="h-full bg-accent-400" style={{ width: `${share}%` }} />
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
                <Count term="Queued" value={announcement.queued} />
                <Count term="Sent" value={announcement.sent} />
                <Count term="Failed" value={announcement.failed} />
                <Count term="Unsubscribed" value={announcement.unsubscribed} />
              </dl>
              {announcement.failures.length > 0 && (
                <details className="mt-3 text-sm text-stone-300">
                  <summary className="cursor-pointer text-red-200">Why some failed</summary>
                  <ul className="mt-2 space-y-1">
                    {announcement.failures.map((failure) => (
                      <li key={`${failure.to}-${failure.at}`} className="break-words">
                        <span className="text-stone-100">{failure.to}</span>: {failure.error}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

function Count({ term, value }: { term: string; value: number }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wider text-stone-400">{term}</dt>
      <dd className="font-mono text-stone-100 tabular-nums">{numberFormat.format(value)}</dd>
    </div>
  );
}
