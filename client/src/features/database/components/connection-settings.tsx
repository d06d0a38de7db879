import { POOL_SIZE_RANGE } from '@common/schemas/database';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import type { DatabaseForm } from '../api';
import { DatabaseField } from './database-field';

export interface ConnectionSettingsProps {
  form: DatabaseForm;
  onChange: (change: Partial<DatabaseForm>) => void;
  /** Names for the database list: the server's databases and any the last test found. */
  databases: string[];
  passwordSet: boolean;
  /** MONGODB_URI decides the store: the form may still test, but not save. */
  locked: boolean;
  busy: null | 'test' | 'save';
  onTest: () => void;
  onSave: () => void;
}

/** Collapsible Connection Settings with Test Connection and Save Configuration (SPEC: "Database panel"). */
export function ConnectionSettings(props: ConnectionSettingsProps) {
  const { form, onChange, databases, passwordSet, locked, busy } = props;
  const ids = useId();
  const [open, setOpen] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSave();
  };

  return (
    <Card className="!p-0">
      <h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${ids}-form`}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center justify-between gap-3 rounded-2xl px-5 py-4 text-left text-lg font-semibold text-white hover:bg-white/5 sm:px-8"
        >
          Connection Settings
          <span
            aria-hidden="true"
            className={`text-stone-400 transition-transform ${open ? 'rotate-90' : ''}`}
          >
            ▸
          </span>
        </button>
      </h2>
      <form
        id={`${ids}-form`}
        hidden={!open}
        onSubmit={submit}
        className="grid grid-cols-1 gap-5 border-t border-white/10 px-5 py-6 sm:grid-cols-2 sm:px-8"
      >
        <TextField
          label="Host"
          required
          autoComplete="off"
          spellCheck={false}
          value={form.host}
          onChange={(e) => onChange({ host: e.target.value })}
        />
        <TextField
          label="Port"
          type="number"
          required
          min={1}
          max={65535}
          value={form.port}
          onChange={(e) => onChange({ port: e.target.value })}
        />
        <DatabaseField
          value={form.database}
          databases={databases}
          onChange={(database) => onChange({ database })}
        />
        <TextField
          label="Connection Pool Size"
          type="number"
          required
          min={POOL_SIZE_RANGE.min}
          max={POOL_SIZE_RANGE.max}
          hint={`${POOL_SIZE_RANGE.min} to ${POOL_SIZE_RANGE.max} connections per server process.`}
          value={form.poolSize}
          onChange={(e) => onChange({ poolSize: e.target.value })}
        />
        <CheckboxField
          className="self-end py-2 font-medium"
          label="Enable Authentication"
          checked={form.authEnabled}
          onChange={(authEnabled) => onChange({ authEnabled })}
        />
        <CheckboxField
          className="self-end py-2 font-medium"
          label="Enable SSL/TLS"
          checked={form.ssl}
          onChange={(ssl) => onChange({ ssl })}
        />
        {form.authEnabled && (
          <>
            <TextField
              label="Username"
              required
              autoComplete="off"
              value={form.username}
              onChange={(e) => onChange({ username: e.target.value })}
            />
            <PasswordField
              label="Password"
              autoComplete="new-password"
              placeholder={passwordSet ? 'Saved (leave empty to keep it)' : ''}
              value={form.password}
              onChange={(e) => onChange({ password: e.target.value })}
            />
          </>
        )}
        <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:flex-wrap sm:items-center">
          <Button variant="secondary" onClick={props.onTest} disabled={busy !== null}>
            {busy === 'test' ? 'Testing...' : 'Test Connection'}
          </Button>
          <Button type="submit" disabled={busy !== null || locked}>
            {busy === 'save' ? 'Saving...' : 'Save Configuration'}
          </Button>
        </div>
        <p className="text-xs text-stone-400 sm:col-span-2">
          {locked
            ? 'MONGODB_URI is set in the server’s environment: it decides the database, so these settings cannot change it. Test Connection still works.'
            : 'Save connects first. If that database has no users yet, this site’s data is copied into it and checked; then the server restarts on it. A database that already has users is used as it is, if your account is an administrator there.'}
        </p>
      </form>
    </Card>
  );
}
