import { type FormEvent, useEffect, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { useMailIdentity, useMakeDkimKey, useSaveFrom } from '../api';

/**
 * Who mail comes from and how inboxes can trust it: the From address (on the site's domain),
 * the DKIM key made here, and the DNS records (DKIM, SPF, DMARC) to copy into the domain's DNS.
 */
export function IdentityCard() {
  const identity = useMailIdentity();
  const saveFrom = useSaveFrom();
  const makeKey = useMakeDkimKey();
  const notices = useNotices();
  const confirm = useConfirm();
  const [from, setFrom] = useState('');
  const view = identity.data;

  useEffect(() => {
    if (view) setFrom(view.from);
  }, [view]);

  async function onSave(event: FormEvent) {
    event.preventDefault();
    try {
      await saveFrom.mutateAsync(from);
      notices.success(`Mail now comes from ${from}.`);
    } catch (error) {
      notices.error(`Not saved: ${(error as Error).message}`);
    }
  }

  async function onMakeKey() {
    if (view?.dkim) {
      const sure = await confirm({
        title: 'Make a new DKIM key?',
        message:
          'Mail is signed with the new key at once: publish its DNS record first, or inboxes cannot check it until you do.',
        confirmLabel: 'Make a new key',
      });
      if (!sure) return;
    }
    try {
      await makeKey.mutateAsync();
      notices.success('DKIM key made: publish the record below in your DNS.', { seconds: 6 });
    } catch (error) {
      notices.error(`No key made: ${(error as Error).message}`);
    }
  }

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      notices.success('Copied.');
    } catch {
      notices.error('Could not copy: select the text and copy it by hand.');
    }
  }

  return (
    <Card className="sm:p-6" aria-labelledby="identity-heading">
      <h2 id="identity-heading" className="text-lg font-semibold text-white">
        Sender and DNS
      </h2>
      <form onSubmit={onSave} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Mail comes from"
          type="email"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          hint={
            view
              ? `An address on ${view.domain} or the site’s domain. Until set: ${view.configuredFrom}.`
              : undefined
          }
          className="sm:flex-1"
        />
        <Button
          type="submit"
          variant="secondary"
          disabled={saveFrom.isPending || !from || from === view?.from}
        >
          Save sender
        </Button>
      </form>
      <div className="mt-5 flex flex-wrap items-center gap-3">
        <p className="text-sm text-stone-300">
          {view?.dkim
            ? `Signed with DKIM (selector ${view.dkim.selector}, made ${new Date(view.dkim.createdAt).toLocaleDateString()}).`
            : 'Not signed yet: make a DKIM key so inboxes can tell your mail is really yours.'}
        </p>
        <Button variant="secondary" className="px-3 py-1.5" disabled={makeKey.isPending} onClick={onMakeKey}>
          {view?.dkim ? 'Make a new key' : 'Make a DKIM key'}
        </Button>
      </div>
      {view && (
        <ul className="mt-4 space-y-3">
          {view.records.map((record) => (
            <li key={record.name} className="rounded-xl border border-white/10 bg-black/20 p-3 text-sm">
              <p className="text-stone-300">{record.purpose}</p>
              <p className="mt-2 break-all font-mono text-xs text-stone-100">
                {record.type} {record.name}
              </p>
              <p className="mt-1 break-all font-mono text-xs text-stone-100">{record.value}</p>
              <Button variant="ghost" className="mt-2 px-2 py-1" onClick={() => copy(record.value)}>
                Copy value of {record.name}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
