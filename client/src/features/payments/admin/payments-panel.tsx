import type { PaymentsSettingsView } from '@common/schemas/payments';
import { splitPriceIds } from '@common/schemas/payments';
import { useEffect, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { useUnsavedChanges } from '../../../components/console/leave-guard';
import { useNotices } from '../../../components/console/notices';
import { Card } from '../../../components/ui/card';
import { usePaymentsSettings, useSavePaymentsSettings, useTestPayments } from './api';
import { ConnectSteps } from './connect-steps';
import { CoursePrices } from './course-prices';
import { PriceList } from './price-list';
import { trialDaysOf } from './selling-options';
import { type SettingsDraft, SettingsForm } from './settings-form';
import { TestResult } from './test-result';

const emptyDraft = (view: PaymentsSettingsView): SettingsDraft => ({
  secretKey: '',
  webhookSecret: '',
  priceIds: view.priceIds.join(', '),
  promotionCodes: view.promotionCodes,
  trialDays: view.trialDays === null ? '' : String(view.trialDays),
  trialWithoutCard: view.trialWithoutCard,
});

/** What is typed but not saved, in words, for the unsaved-changes guard. */
function unsavedOf(draft: SettingsDraft | null, view: PaymentsSettingsView | undefined): string | null {
  if (!draft || !view) return null;
  const changed = [
    draft.secretKey && 'the secret key',
    draft.webhookSecret && 'the webhook signing secret',
    splitPriceIds(draft.priceIds).join(',') !== view.priceIds.join(',') && 'the prices',
    draft.promotionCodes !== view.promotionCodes && 'promotion codes',
    (trialDaysOf(draft.trialDays) !== view.trialDays || draft.trialWithoutCard !== view.trialWithoutCard) &&
      'the free trial',
  ].filter(Boolean);
  return changed.length ? changed.join(', ') : null;
}

/**
 * The console's Payments section: connect Stripe (key, webhook signing secret, prices), Test
 * what Stripe says of them, and the steps to follow in Stripe's dashboard. Secrets are write-only.
 */
export function PaymentsPanel() {
  const settings = usePaymentsSettings();
  const save = useSavePaymentsSettings();
  const test = useTestPayments();
  const notices = useNotices();
  const confirm = useConfirm();
  const view = settings.data;
  const [draft, setDraft] = useState<SettingsDraft | null>(null);

  useEffect(() => {
    if (view) setDraft((current) => current ?? emptyDraft(view));
  }, [view]);
  useUnsavedChanges(unsavedOf(draft, view));

  const bodyOf = (current: SettingsDraft) => ({
    secretKey: current.secretKey,
    webhookSecret: current.webhookSecret,
    priceIds: splitPriceIds(current.priceIds),
    promotionCodes: current.promotionCodes,
    // Anything not a number is sent as typed, for the server to refuse in words.
    trialDays: trialDaysOf(current.trialDays) as number | null,
    trialWithoutCard: current.trialWithoutCard,
  });

  async function onSave() {
    if (!draft) return;
    try {
      const saved = await save.mutateAsync(bodyOf(draft));
      setDraft(emptyDraft(saved));
      // The result was about the settings before the save: it would contradict "Connected".
      test.reset();
      notices.success(
        saved.ready ? 'Payment settings saved: members can upgrade.' : 'Payment settings saved.',
        saved.ready
          ? { seconds: 5 }
          : {
              detail:
                'Members see no Upgrade button until the key, the signing secret and a price are all set.',
              seconds: 7,
            },
      );
    } catch (error) {
      notices.error(`Failed to save: ${(error as Error).message}`);
    }
  }

  async function onDisconnect() {
    const sure = await confirm({
      title: 'Disconnect Stripe?',
      message:
        'The secret key, the webhook signing secret and the prices are forgotten. Members can no longer upgrade, and Stripe’s events are refused until you connect again. Subscriptions at Stripe go on: cancel them there if you mean to stop charging.',
      confirmLabel: 'Disconnect Stripe',
      destructive: true,
    });
    if (!sure) return;
    try {
      const saved = await save.mutateAsync({ remove: ['secretKey', 'webhookSecret'], priceIds: [] });
      setDraft(emptyDraft(saved));
      test.reset();
      notices.success('Stripe disconnected.');
    } catch (error) {
      notices.error(`Failed to disconnect: ${(error as Error).message}`);
    }
  }

  return (
    <section aria-labelledby="payments-heading" className="space-y-6">
      <header>
        <h1 id="payments-heading" className="text-2xl font-semibold text-white sm:text-3xl">
          Payments
        </h1>
        <p className="mt-2 text-stone-300">
          Connect Stripe so that members pay for the Architect Tier on Stripe’s page and become paid by
          themselves.
        </p>
      </header>

      {settings.isError ? (
        <p role="alert" className="rounded-lg border border-red-500/40 bg-red-500/15 p-4 text-red-200">
          Failed to load the payment settings: {(settings.error as Error).message}
        </p>
      ) : !view || !draft ? (
        <p className="text-stone-400">Loading settings…</p>
      ) : (
        <>
          <StatusLine view={view} />
          <Card>
            <SettingsForm
              view={view}
              draft={draft}
              busy={save.isPending ? 'save' : test.isPending ? 'test' : null}
              onChange={(change) => setDraft((current) => (current ? { ...current, ...change } : current))}
              onSave={onSave}
              onTest={() =>
                test.mutate({
                  secretKey: draft.secretKey,
                  webhookSecret: draft.webhookSecret,
                  priceIds: splitPriceIds(draft.priceIds),
                })
              }
              onDisconnect={onDisconnect}
            />
            {test.isError && (
              <p role="alert" className="mt-4 text-sm text-red-300">
                The test could not run: {test.error.message}
              </p>
            )}
            {test.data && <TestResult result={test.data} />}
          </Card>
          <PriceList
            connected={view.secretKey.set}
            offered={splitPriceIds(draft.priceIds)}
            fixed={Boolean(view.fixedByEnvironment.priceIds)}
            onOffer={(priceIds) =>
              setDraft((current) => (current ? { ...current, priceIds: priceIds.join(', ') } : current))
            }
          />
          <CoursePrices view={view} />
          <ConnectSteps view={view} />
        </>
      )}
    </section>
  );
}

function StatusLine({ view }: { view: PaymentsSettingsView }) {
  const missing = [
    !view.secretKey.set && 'the secret key',
    !view.webhookSecret.set && 'the webhook signing secret',
    view.priceIds.length === 0 && 'a price',
  ].filter(Boolean);
  return view.ready ? (
    <p
      role="status"
      className="flex items-start gap-2.5 rounded-xl border border-emerald-500/30 bg-emerald-500/10 px-4 py-3 text-sm text-emerald-100"
    >
      <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-emerald-400" />
      <span>
        Connected to Stripe in <strong className="font-semibold">{view.mode} mode</strong>: members can
        upgrade
        {view.mode === 'test'
          ? ' with Stripe’s test cards; no real money moves.'
          : ' and are charged for real.'}
      </span>
    </p>
  ) : (
    <p
      role="status"
      className="flex items-start gap-2.5 rounded-xl border border-white/15 bg-white/5 px-4 py-3 text-sm text-stone-200"
    >
      <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-stone-500" />
      <span>Not connected: members see no Upgrade button. Still needed: {missing.join(', ')}.</span>
    </p>
  );
}
