import { formatMoment } from '@common/dates';
import type { NginxConfig } from '@common/nginx-defaults';
import type { NginxHistoryEntry } from '@common/schemas/nginx';
import { useEffect, useState } from 'react';
import { useConfirm } from '../../components/console/confirm-dialog';
import { useNotices } from '../../components/console/notices';
import { FormMessage } from '../../components/ui/form-message';
import { ApiError } from '../../lib/api-client';
import {
  type CertificateRequestForm,
  type NginxAnswer,
  useCertificate,
  useNginxConfig,
  useNginxHistory,
  useNginxStatus,
  useObtainCertificate,
  useRestartNginx,
  useRestoreNginxVersion,
  useSaveNginxConfig,
} from './api';
import { ConfigForm } from './components/config-form';
import { HistoryCard } from './components/history-card';
import { HttpsCard } from './components/https-card';
import { StatusCard } from './components/status-card';
import {
  type ActionTexts,
  type NginxForm,
  type Outcome,
  outcomeOf,
  RESTART_TEXTS,
  SAVE_TEXTS,
  toConfig,
  toForm,
} from './nginx-form';

type Busy = 'save' | 'restart' | 'restore' | null;

/** The Nginx console panel: status, settings, save and restart (confirmed), saved versions. */
export function NginxPanel() {
  const confirm = useConfirm();
  const configQuery = useNginxConfig();
  const statusQuery = useNginxStatus();
  const historyQuery = useNginxHistory();
  const [form, setForm] = useState<NginxForm | null>(null);
  const saveMutation = useSaveNginxConfig();
  const restartMutation = useRestartNginx();
  const restoreMutation = useRestoreNginxVersion();
  const busy: Busy = saveMutation.isPending
    ? 'save'
    : restartMutation.isPending
      ? 'restart'
      : restoreMutation.isPending
        ? 'restore'
        : null;
  const notices = useNotices();
  const [invalid, setInvalid] = useState<keyof NginxConfig | null>(null);
  const [refusal, setRefusal] = useState<Pick<Outcome, 'refusal' | 'targets'>>({});
  const certificateQuery = useCertificate();
  const obtainMutation = useObtainCertificate();
  const [certificateRefusal, setCertificateRefusal] = useState<{ field?: string; message: string } | null>(
    null,
  );

  async function obtain(request: CertificateRequestForm) {
    setCertificateRefusal(null);
    try {
      const answer = await obtainMutation.mutateAsync(request);
      notices.success(answer.message, { seconds: 7 });
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure);
      const field =
        failure instanceof ApiError ? (failure.body as { field?: string } | undefined)?.field : undefined;
      // A failed order is shown on the card with what to fix; a refused field at the field.
      if (field) setCertificateRefusal({ field, message });
      else notices.error(`No certificate: ${message}`);
    }
  }

  // The form follows the saved configuration: on load, and when it reloads after a save or restart.
  useEffect(() => {
    if (configQuery.data) setForm(toForm(configQuery.data));
  }, [configQuery.data]);

  async function act(texts: ActionTexts, call: () => Promise<NginxAnswer>) {
    let result: Outcome;
    try {
      result = outcomeOf(texts, { answer: await call() });
    } catch (failure) {
      result = outcomeOf(texts, { failure });
    }
    if (result.ok) notices.success(result.text, { detail: result.warning, seconds: result.warning ? 7 : 3 });
    else notices.error(result.text);
    setInvalid(result.field ?? null);
    setRefusal({ refusal: result.refusal, targets: result.targets });
  }

  const save = () => form && act(SAVE_TEXTS, () => saveMutation.mutateAsync(toConfig(form)));

  const nothingRunning = statusQuery.data?.stats.processes === 0;

  async function restart() {
    const confirmed = await confirm(
      nothingRunning
        ? {
            title: 'Start Nginx?',
            message: 'nginx is not running. It will be started with the saved configuration.',
            confirmLabel: 'Start',
          }
        : {
            title: 'Restart Nginx?',
            message:
              'A running nginx reloads its configuration gracefully; one whose master process is gone has its leftover workers stopped and is started again. Service may be briefly interrupted.',
            confirmLabel: 'Restart',
          },
    );
    if (confirmed) void act(RESTART_TEXTS, () => restartMutation.mutateAsync());
  }

  async function restore(entry: NginxHistoryEntry) {
    const confirmed = await confirm({
      title: 'Restore this version?',
      message: `The version saved on ${formatMoment(entry.savedAt)} by ${entry.savedBy} replaces the live settings. It is tested by nginx before it goes live.`,
      confirmLabel: 'Restore',
    });
    if (confirmed) void act(SAVE_TEXTS, () => restoreMutation.mutateAsync(entry.id));
  }

  const statusFailure = statusQuery.isError
    ? `Could not check: ${(statusQuery.error as Error).message}`
    : null;

  return (
    <section className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold text-white">Nginx</h1>
        <p className="mt-1 text-stone-400">
          The web server in front of the site: its status, settings and history.
        </p>
      </header>

      <StatusCard
        status={statusQuery.data}
        checking={statusQuery.isFetching}
        failure={statusFailure}
        onRefresh={() => void statusQuery.refetch()}
      />

      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {configQuery.isError ? (
          <FormMessage tone="error">Failed to load configuration</FormMessage>
        ) : form ? (
          <ConfigForm
            form={form}
            busy={busy}
            invalid={invalid}
            refusal={refusal.refusal}
            refusedTargets={refusal.targets}
            onChange={(change) => {
              setForm((current) => (current ? { ...current, ...change } : current));
              const edited = 'proxyTargets' in change ? 'proxyPass' : invalid;
              if (invalid && (invalid in change || invalid === edited)) setInvalid(null);
            }}
            onSave={() => void save()}
            onRestart={restart}
            nothingRunning={nothingRunning}
          ></ConfigForm>
        ) : (
          <p className="text-stone-400">Loading configuration…</p>
        )}
        <div className="space-y-6">
          <HttpsCard
            status={certificateQuery.data}
            busy={obtainMutation.isPending}
            refused={certificateRefusal}
            onObtain={(request) => void obtain(request)}
          />
          <HistoryCard
            history={historyQuery.data}
            loadFailed={historyQuery.isError}
            busy={busy !== null}
            onRestore={restore}
          />
        </div>
      </div>
    </section>
  );
}
