import { DATABASE_DEFAULTS } from '@common/schemas/database';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useConfirm } from '../../components/console/confirm-dialog';
import { useNotices } from '../../components/console/notices';
import {
  type DatabaseForm,
  databaseKeys,
  fetchConfig,
  fetchStatus,
  useDatabases,
  useSaveDatabaseConfig,
  useTestConnection,
} from './api';
import { ConnectionSettings } from './components/connection-settings';
import { DatabaseStatsCard } from './components/database-stats-card';
import { StatusLine } from './components/status-line';

/** The status is reloaded 1 second after a save. */
const STATUS_RELOAD_MS = 1000;
/** After a save the server restarts on the new store; its status is asked for until it answers. */
const RESTART_WAIT_MS = 60_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const EMPTY_FORM: DatabaseForm = {
  ...DATABASE_DEFAULTS,
  port: String(DATABASE_DEFAULTS.port),
  poolSize: String(DATABASE_DEFAULTS.poolSize),
  password: '',
};

const DATABASE_NOTICE_SECONDS = 5;

/** The console's MongoDB section (SPEC "Database panel"): status, connection settings, statistics. */
export function DatabasePanel() {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const notices = useNotices();
  // This panel's success notices show for 5 seconds; errors stay until dismissed.
  const success = useCallback(
    (text: string, detail?: string) => notices.success(text, { detail, seconds: DATABASE_NOTICE_SECONDS }),
    [notices],
  );
  const error = useCallback((text: string, detail?: string) => notices.error(text, { detail }), [notices]);
  const config = useQuery({ queryKey: databaseKeys.config, queryFn: fetchConfig, retry: false });
  const status = useQuery({ queryKey: databaseKeys.status, queryFn: fetchStatus, retry: false });
  const databases = useDatabases();
  const [form, setForm] = useState<DatabaseForm | null>(null);
  const [tested, setTested] = useState<string[]>([]);
  const testMutation = useTestConnection();
  const saveMutation = useSaveDatabaseConfig();
  const busy = testMutation.isPending ? 'test' : saveMutation.isPending ? 'save' : null;
  const [restarting, setRestarting] = useState(false);
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  // The form starts from the saved settings once; later reloads must not wipe what is being typed.
  useEffect(() => {
    if (!config.data) return;
    const { passwordSet: _, ...saved } = config.data.config;
    setForm(
      (current) =>
        current ?? { ...saved, port: String(saved.port), poolSize: String(saved.poolSize), password: '' },
    );
  }, [config.data]);
  useEffect(() => {
    if (config.isError) error('Failed to load config', messageOf(config.error));
  }, [config.isError, config.error, error]);
  useEffect(() => {
    if (status.isError && !restarting) error('Failed to check status', messageOf(status.error));
  }, [status.isError, status.error, restarting, error]);

  const later = (run: () => void, ms: number) => timers.current.push(setTimeout(run, ms));

  /** Asks until the restarted server answers, then shows its status and its databases. */
  function followRestart(until: number) {
    fetchStatus()
      .then((answer) => {
        // Still the old process (it says it is restarting), or a new one not yet on its store.
        if (!answer.stats.location || answer.restarting) throw new Error('not yet');
        setRestarting(false);
        queryClient.setQueryData(databaseKeys.status, answer);
        void queryClient.invalidateQueries({ queryKey: ['database'] });
      })
      .catch((failure) => {
        if (Date.now() < until) later(() => followRestart(until), STATUS_RELOAD_MS);
        else {
          setRestarting(false);
          error('Failed to check status', messageOf(failure));
        }
      });
  }

  async function test() {
    if (!form) return;
    try {
      const answer = await testMutation.mutateAsync(form);
      if (answer.success && answer.connected) {
        const { collections = 0, documents = 0 } = answer.stats ?? {};
        success(`Connection successful! Found ${collections} collections and ${documents} documents.`);
        setTested(answer.databases ?? []);
      } else notices.error(answer.message || 'Connection failed', { technical: answer.detail });
    } catch (failure) {
      error(`Connection test failed: ${messageOf(failure)}`);
    }
  }

  async function save() {
    if (!form) return;
    const sure = await confirm({
      title: 'Move the site to this database?',
      message: `Save Configuration switches the site to ${form.database} on ${form.host}:${form.port}. If that database has no users, everything is copied into it first. The server then restarts on it.`,
      confirmLabel: 'Move and restart',
    });
    if (!sure) return;
    try {
      const answer = await saveMutation.mutateAsync(form);
      const copied = answer.copied ? Object.values(answer.copied).reduce((sum, n) => sum + n, 0) : null;
      success(
        'MongoDB configuration saved successfully!',
        `${copied === null ? 'The database already held this site’s data.' : `Copied ${copied} documents.`}${
          answer.restarting ? ' The server is restarting on it.' : ''
        }`,
      );
      setForm((current) => current && { ...current, password: '' });
      if (answer.restarting) setRestarting(true);
      later(() => {
        if (answer.restarting) followRestart(Date.now() + RESTART_WAIT_MS);
        else void status.refetch();
      }, STATUS_RELOAD_MS);
    } catch (failure) {
      error('Failed to save configuration', messageOf(failure));
    }
  }

  const locked = config.data?.environmentOverride === true;
  const names = databases.data?.map((d) => d.name) ?? [];

  return (
    <section className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold text-white">MongoDB</h1>
        <p className="mt-1 text-stone-400">
          Where the site keeps its data, and moving it to a MongoDB server.
        </p>
      </header>

      <StatusLine
        status={restarting ? undefined : status.data}
        failed={status.isError && !restarting}
        refreshing={status.isFetching || restarting}
        onRefresh={() => void status.refetch()}
      />
      {restarting && (
        <p className="text-sm text-accent-300" aria-live="polite">
          Restarting on the new database…
        </p>
      )}
      {locked && (
        <p className="rounded-lg border border-accent-400/30 bg-accent-400/10 px-4 py-3 text-sm text-accent-300">
          MONGODB_URI is set in the server’s environment. It decides the database the site uses; the settings
          below can test other servers but cannot switch to them.
        </p>
      )}

      <ConnectionSettings
        form={form ?? EMPTY_FORM}
        onChange={(change) => setForm((current) => ({ ...(current ?? EMPTY_FORM), ...change }))}
        databases={[...names, ...tested]}
        passwordSet={config.data?.config.passwordSet ?? false}
        locked={locked}
        busy={busy}
        onTest={test}
        onSave={save}
      />

      <div>
        <h2 className="text-lg font-semibold text-white">Statistics</h2>
        {databases.isError ? (
          <p className="mt-3 text-sm text-red-300">
            Could not list the databases: {messageOf(databases.error)}
          </p>
        ) : (
          <ul className="mt-3 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {names.map((name) => (
              <DatabaseStatsCard key={name} name={name} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
