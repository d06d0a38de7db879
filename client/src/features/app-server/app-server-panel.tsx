import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '../../components/console/confirm-dialog';
import { useNotices } from '../../components/console/notices';
import { clearToken, getToken, handOverUrl } from '../../lib/auth-token';
import {
  movesThisPage,
  useAppServerConfig,
  useAppServerStatus,
  useRestartAppServer,
  useSaveAppServerConfig,
} from './api';
import { ConfigForm } from './components/config-form';
import { StatusCard } from './components/status-card';
import {
  bodyOf,
  type ConfigDraft,
  draftOf,
  FIELD_LABELS,
  type FieldErrors,
  fieldErrors,
} from './config-draft';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** Long enough to read 'Server restart initiated...' before the console moves on. */
const MOVE_AFTER_MS = 1500;
const SUCCESS_SECONDS = 5;

/** The console's Node.js panel: live status, settings and restart; buttons wait while a call is out. */
export function AppServerPanel() {
  const confirm = useConfirm();
  const navigate = useNavigate();
  const configQuery = useAppServerConfig();
  const statusQuery = useAppServerStatus();
  const config = configQuery.data;
  const [draft, setDraft] = useState<ConfigDraft | null>(null);
  const saveMutation = useSaveAppServerConfig();
  const restartMutation = useRestartAppServer();
  const busy = saveMutation.isPending ? 'save' : restartMutation.isPending ? 'restart' : null;
  const notices = useNotices();
  const [errors, setErrors] = useState<FieldErrors>({});
  const moving = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The form starts from the saved settings once; a later refetch must not wipe what is typed.
  useEffect(() => {
    if (config) setDraft((current) => current ?? draftOf(config));
  }, [config]);
  useEffect(() => () => clearTimeout(moving.current), []);

  async function save() {
    if (!draft || !config) return;
    // Every bad field is shown at once, at the field, before anything is sent.
    const problems = fieldErrors(draft, config.fixedByEnvironment);
    setErrors(problems);
    const bad = Object.keys(problems) as Array<keyof FieldErrors>;
    if (bad.length > 0) {
      notices.error(`Failed to save: please correct ${bad.map((f) => FIELD_LABELS[f]).join(' and ')}.`);
      return;
    }
    try {
      const answer = await saveMutation.mutateAsync(bodyOf(draft));
      setDraft(draftOf(answer.config));
      notices.success('Node.js configuration saved! Restart the server for changes to take effect.', {
        seconds: SUCCESS_SECONDS,
      });
    } catch (error) {
      notices.error(`Failed to save: ${messageOf(error)}`);
    }
  }

  async function restart() {
    const sure = await confirm({
      title: 'Restart the server?',
      message: 'This will disconnect all users briefly.',
      confirmLabel: 'Restart Server',
    });
    if (!sure) return;
    // Stays on screen until it is true: the server is back, or it failed.
    const progress = notices.progress('Server restart initiated...');
    const signsEveryoneOut = config?.pendingRestart.includes('sessionSecret') ?? false;
    try {
      const { answer, fresh } = await restartMutation.mutateAsync({ signsEveryoneOut });
      const moved = answer.port !== answer.previousPort;
      if (movesThisPage(answer)) {
        // This page talks to the server directly: follow it to its new port.
        const origin = `${window.location.protocol}//${window.location.hostname}:${answer.port}`;
        progress.update(`Server restart initiated... Moving to ${origin}…`);
        const token = getToken();
        moving.current = setTimeout(() => {
          window.location.assign(signsEveryoneOut || !token ? `${origin}/login` : handOverUrl(origin, token));
        }, MOVE_AFTER_MS);
        return;
      }
      const detail = moved
        ? `The server now listens on port ${answer.port}. If the web server forwards to it, update its proxy target.`
        : undefined;
      if (signsEveryoneOut) {
        progress.update(
          'Server restart initiated... The new session secret signs everyone out: sign in again.',
        );
        moving.current = setTimeout(() => {
          clearToken();
          navigate('/login', { replace: true });
        }, MOVE_AFTER_MS);
        return;
      }
      if (fresh) setDraft(draftOf(fresh));
      progress.success('Server is back: the restart is complete.', { detail, seconds: SUCCESS_SECONDS });
    } catch (error) {
      progress.error(`Failed to restart: ${messageOf(error)}`);
    }
  }

  return (
    <section className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold text-white">Node.js Server</h1>
        <p className="mt-1 text-stone-400">
          How the application server is doing, and the settings it runs with.
        </p>
      </header>

      <StatusCard
        status={statusQuery.data}
        refreshing={statusQuery.isFetching}
        updatedAt={statusQuery.dataUpdatedAt}
        onRefresh={() => void statusQuery.refetch()}
      />

      {configQuery.isError ? (
        <p role="alert" className="rounded-lg border border-red-500/40 bg-red-500/15 p-4 text-red-200">
          Failed to load config: {messageOf(configQuery.error)}
        </p>
      ) : config && draft ? (
        <ConfigForm
          config={config}
          draft={draft}
          busy={busy}
          onChange={(change) => {
            setDraft((current) => (current ? { ...current, ...change } : current));
            // A field's message goes once it is edited; the rest stay until the next save.
            setErrors((current) => {
              const next = { ...current };
              for (const field of Object.keys(change)) delete next[field as keyof FieldErrors];
              return next;
            });
          }}
          onSave={save}
          onRestart={restart}
          errors={errors}
        />
      ) : (
        <p className="text-stone-400">Loading settings…</p>
      )}
    </section>
  );
}
