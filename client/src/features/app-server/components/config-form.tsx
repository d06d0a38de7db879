import {
  APP_SERVER_LIMITS,
  type AppLogLevel,
  type AppServerConfigView,
  type AppServerField,
  type NodeEnv,
  WORKERS_AUTOMATIC_MAX,
} from '@common/schemas/app-server';
import type { FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PasswordField } from '../../../components/ui/password-field';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { type ConfigDraft, FIELD_LABELS, type FieldErrors } from '../config-draft';

const ENVIRONMENTS = [
  { value: 'development', label: 'Development' },
  { value: 'production', label: 'Production' },
  { value: 'test', label: 'Test' },
];
const LOG_LEVELS = [
  { value: 'error', label: 'Error' },
  { value: 'warn', label: 'Warning' },
  { value: 'info', label: 'Info' },
  { value: 'debug', label: 'Debug' },
  { value: 'verbose', label: 'Verbose' },
];

/** Automatic first, then every count the server accepts. */
const WORKER_COUNTS = [
  { value: '0', label: `Automatic (one per CPU core, up to ${WORKERS_AUTOMATIC_MAX})` },
  ...Array.from({ length: APP_SERVER_LIMITS.workersMax }, (_, i) => ({
    value: String(i + 1),
    label: i === 0 ? '1 worker' : `${i + 1} workers`,
  })),
];

export interface ConfigFormProps {
  config: AppServerConfigView;
  draft: ConfigDraft;
  busy: null | 'save' | 'restart';
  errors: FieldErrors;
  onChange: (change: Partial<ConfigDraft>) => void;
  onSave: () => void;
  onRestart: () => void;
}

/** The application server's settings, with Save Configuration and Restart Server. */
export function ConfigForm({ config, draft, busy, errors, onChange, onSave, onRestart }: ConfigFormProps) {
  const fixed = config.fixedByEnvironment;
  /** The hint of a field: why it is read-only, else what it does. */
  const hint = (field: AppServerField, usual: string) =>
    fixed[field] ? `Set by the ${fixed[field]} environment variable, so it is read-only here.` : usual;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  const L = APP_SERVER_LIMITS;

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Configuration</h2>
      <p className="mt-1 text-sm text-stone-300">
        Server Port, Environment and Workers take effect when the server restarts. CORS Origin, Max Request
        Size, the rate limit and Log Level apply as soon as they are saved.
      </p>
      {config.pendingRestart.length > 0 && (
        <p className="mt-3 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3.5 py-2.5 text-sm text-amber-100">
          Saved, waiting for a restart: {config.pendingRestart.map((field) => FIELD_LABELS[field]).join(', ')}
          .
        </p>
      )}
      <form onSubmit={submit} noValidate className="mt-5 grid grid-cols-1 gap-5 md:grid-cols-2">
        <TextField
          label={FIELD_LABELS.port}
          error={errors.port}
          type="number"
          inputMode="numeric"
          min={L.portMin}
          max={L.portMax}
          step={1}
          value={draft.port}
          disabled={Boolean(fixed.port)}
          onChange={(e) => onChange({ port: e.target.value })}
          hint={hint('port', `${L.portMin} to ${L.portMax}. Needs a restart.`)}
        />
        <SelectField
          label={FIELD_LABELS.nodeEnv}
          options={ENVIRONMENTS}
          value={draft.nodeEnv}
          disabled={Boolean(fixed.nodeEnv)}
          onChange={(e) => onChange({ nodeEnv: e.target.value as NodeEnv })}
          hint={hint('nodeEnv', 'Sets NODE_ENV for the server process. Needs a restart.')}
        />
        <TextField
          label={FIELD_LABELS.corsOrigin}
          error={errors.corsOrigin}
          value={draft.corsOrigin}
          disabled={Boolean(fixed.corsOrigin)}
          onChange={(e) => onChange({ corsOrigin: e.target.value })}
          hint={hint(
            'corsOrigin',
            '* lets every site call the API; or list sites, e.g. https://example.com, https://app.example.com',
          )}
        />
        <TextField
          label={FIELD_LABELS.maxRequestSize}
          error={errors.maxRequestSize}
          value={draft.maxRequestSize}
          disabled={Boolean(fixed.maxRequestSize)}
          onChange={(e) => onChange({ maxRequestSize: e.target.value })}
          hint={hint(
            'maxRequestSize',
            'e.g. 10mb or 100kb (1kb to 100mb). Media uploads keep their own 200MB limit.',
          )}
        />
        <TextField
          label={FIELD_LABELS.rateLimitWindow}
          error={errors.rateLimitWindow}
          type="number"
          inputMode="numeric"
          min={L.rateLimitWindowMin}
          step={1000}
          value={draft.rateLimitWindow}
          disabled={Boolean(fixed.rateLimitWindow)}
          onChange={(e) => onChange({ rateLimitWindow: e.target.value })}
          hint={hint('rateLimitWindow', 'At least 1000. 900000 is 15 minutes.')}
        />
        <TextField
          label={FIELD_LABELS.rateLimitMax}
          error={errors.rateLimitMax}
          type="number"
          inputMode="numeric"
          min={L.rateLimitMaxMin}
          step={1}
          value={draft.rateLimitMax}
          disabled={Boolean(fixed.rateLimitMax)}
          onChange={(e) => onChange({ rateLimitMax: e.target.value })}
          hint={hint(
            'rateLimitMax',
            'API requests per window, per visitor address or signed-in member. Administrators are not counted.',
          )}
        />
        <PasswordField
          label={FIELD_LABELS.sessionSecret}
          error={errors.sessionSecret}
          autoComplete="new-password"
          value={draft.sessionSecret}
          disabled={Boolean(fixed.sessionSecret)}
          placeholder="Blank keeps the current one"
          onChange={(e) => onChange({ sessionSecret: e.target.value })}
          hint={hint(
            'sessionSecret',
            `${config.sessionSecretSet ? 'A secret is set.' : 'None set: a generated one is used.'} It signs sign-in tokens; a new one (32+ characters) takes effect on restart and signs everyone out, you too.`,
          )}
        />
        <SelectField
          label={FIELD_LABELS.logLevel}
          options={LOG_LEVELS}
          value={draft.logLevel}
          disabled={Boolean(fixed.logLevel)}
          onChange={(e) => onChange({ logLevel: e.target.value as AppLogLevel })}
          hint={hint('logLevel', 'What the server writes to its log, from errors only to everything.')}
        />
        <SelectField
          label={FIELD_LABELS.workers}
          options={WORKER_COUNTS}
          value={draft.workers}
          disabled={Boolean(fixed.workers)}
          onChange={(e) => onChange({ workers: e.target.value })}
          hint={hint(
            'workers',
            'Server processes sharing the visitors; if one stops, the others keep serving. Needs a restart (one at a time, nobody is dropped).',
          )}
        />
        <div className="flex flex-col gap-3 md:col-span-2 sm:flex-row sm:items-center sm:justify-end">
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button
              variant="secondary"
              onClick={onRestart}
              disabled={busy !== null}
              className="w-full sm:w-auto"
            >
              {busy === 'restart' ? 'Restarting...' : 'Restart Server'}
            </Button>
            <Button type="submit" disabled={busy !== null} className="w-full sm:w-auto">
              {busy === 'save' ? 'Saving...' : 'Save Configuration'}
            </Button>
          </div>
        </div>
      </form>
    </Card>
  );
}
