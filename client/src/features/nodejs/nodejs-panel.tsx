import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { FormMessage } from '../../components/ui/form-message';
import { clearToken, getToken, handOverUrl } from '../../lib/auth-token';
import { useConfirm } from '../admin/components/confirm-dialog';
import {
  fetchAppServerConfig,
  nodejsKeys,
  restartAppServer,
  saveAppServerConfig,
  useAppServerConfig,
  useAppServerStatus,
} from './api';
import { bodyOf, type ConfigDraft, ConfigForm, draftOf } from './components/config-form';
import { StatusCard } from './components/status-card';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** Long enough to read 'Server restart initiated...' before the console moves on. */
const MOVE_AFTER_MS = 1500;
const SUCCESS_SHOWN_MS = 5000;

interface Notice {
  tone: 'error' | 'success';
  text: string;
  detail?: string;
}

/** The console's Node.js panel (SPEC sections 2, 4 and 8): live status, settings and restart. */
export function NodejsPanel() {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const configQuery = useAppServerConfig();
  const statusQuery = useAppServerStatus();
  const config = configQuery.data;
  const [draft, setDraft] = useState<ConfigDraft | null>(null);
  const [busy, setBusy] = useState<null | 'save' | 'restart'>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const moving = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The form starts from the saved settings once; a later refetch must not wipe what is typed.
  useEffect(() => {
    if (config) setDraft((current) => current ?? draftOf(config));
  }, [config]);
  useEffect(() => {
    if (notice?.tone !== 'success') return;
    const timer = setTimeout(() => setNotice(null), SUCCESS_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  useEffect(() => () => clearTimeout(moving.current), []);

  async function save() {
    if (!draft) return;
    setBusy('save');
    setNotice(null);
    try {
      const answer = await saveAppServerConfig(bodyOf(draft));
      queryClient.setQueryData(nodejsKeys.config, answer.config);
      setDraft(draftOf(answer.config));
      setNotice({
        tone: 'success',
        text: 'Node.js configuration saved! Restart the server for changes to take effect.',
      });
    } catch (error) {
      setNotice({ tone: 'error', text: `Failed to save: ${messageOf(error)}` });
    } finally {
      setBusy(null);
    }
  }

  async function restart() {
    const sure = await confirm({
      title: 'Restart the server?',
      message: 'This will disconnect all users briefly.',
      confirmLabel: 'Restart Server',
    });
    if (!sure) return;
    setBusy('restart');
    setNotice(null);
    const signsEveryoneOut = config?.pendingRestart.includes('sessionSecret') ?? false;
    try {
      const answer = await restartAppServer();
      const here = window.location.port || (window.location.protocol === 'https:' ? '443' : '80');
      const moved = answer.port !== answer.previousPort;
      if (moved && here === String(answer.previousPort)) {
        // This page talks to the server directly: follow it to its new port.
        const origin = `${window.location.protocol}//${window.location.hostname}:${answer.port}`;
        setNotice({ tone: 'success', text: 'Server restart initiated...', detail: `Moving to ${origin}…` });
        const token = getToken();
        moving.current = setTimeout(() => {
          window.location.assign(signsEveryoneOut || !token ? `${origin}/login` : handOverUrl(origin, token));
        }, MOVE_AFTER_MS);
        return;
      }
      setNotice({
        tone: 'success',
        text: 'Server restart initiated...',
        detail: moved
          ? `The server now listens on port ${answer.port}. If the web server forwards to it, update its proxy target.`
          : signsEveryoneOut
            ? 'The new session secret signs everyone out: sign in again.'
            : undefined,
      });
      if (signsEveryoneOut) {
        moving.current = setTimeout(() => {
          clearToken();
          navigate('/login', { replace: true });
        }, MOVE_AFTER_MS);
        return;
      }
      // Requests made now wait for the new server process instead of failing.
      const fresh = await fetchAppServerConfig();
      queryClient.setQueryData(nodejsKeys.config, fresh);
      setDraft(draftOf(fresh));
      await queryClient.invalidateQueries({ queryKey: nodejsKeys.status });
    } catch (error) {
      setNotice({ tone: 'error', text: `Failed to restart: ${messageOf(error)}` });
    } finally {
      setBusy(null);
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
          onChange={(change) => setDraft((current) => (current ? { ...current, ...change } : current))}
          onSave={save}
          onRestart={restart}
          message={
            notice && (
              <div className="space-y-1">
                <FormMessage tone={notice.tone}>{notice.text}</FormMessage>
                {notice.detail && <p className="text-sm text-stone-300">{notice.detail}</p>}
              </div>
            )
          }
        />
      ) : (
        <p className="text-stone-400">Loading settings…</p>
      )}
    </section>
  );
}
