import type { NginxConfig } from '@common/nginx-defaults';
import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { TextField } from '../../../components/ui/text-field';
import { type NginxForm, refusedTargets } from '../nginx-form';
import { ProxyTargetsField } from './proxy-targets-field';

export interface ConfigFormProps {
  form: NginxForm;
  busy: 'save' | 'restart' | 'restore' | null;
  /** The field the server refused, marked until it is edited. */
  invalid: keyof NginxConfig | null;
  /** The server's words about it. */
  refusal?: string;
  /** The places, in the list sent, of the proxy addresses the server refused. */
  refusedTargets?: number[];
  onChange: (change: Partial<NginxForm>) => void;
  onSave: () => void;
  onRestart: () => void;
  /** No nginx process of this configuration runs: the restart button reads "Start". */
  nothingRunning?: boolean;
  children?: ReactNode;
}

/** The Nginx panel's settings form; the HTTPS port shows only while SSL is on. */
export function ConfigForm({
  form,
  busy,
  invalid,
  refusal,
  refusedTargets: refusedPlaces,
  onChange,
  onSave,
  onRestart,
  nothingRunning = false,
  children,
}: ConfigFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  const mark = (field: keyof NginxConfig) => ({ 'aria-invalid': invalid === field || undefined });

  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Configuration</h2>
      <p className="mt-1 text-sm text-stone-400">
        Written into one server block. nginx tests it before it goes live; if nginx refuses it, the old one
        stays.
      </p>
      <form
        onSubmit={submit}
        className="mt-5 grid grid-cols-1 gap-5 md:grid-cols-2 [&_input[aria-invalid=true]]:border-red-400 [&_input[aria-invalid=true]]:ring-2 [&_input[aria-invalid=true]]:ring-red-400/30"
      >
        <TextField
          label="Server name"
          value={form.serverName}
          onChange={(e) => onChange({ serverName: e.target.value })}
          hint="Host names separated by spaces, e.g. example.com www.example.com"
          autoComplete="off"
          spellCheck={false}
          {...mark('serverName')}
        />
        <TextField
          label="HTTP port"
          type="number"
          inputMode="numeric"
          min={1}
          max={65535}
          value={form.port}
          onChange={(e) => onChange({ port: e.target.value })}
          {...mark('port')}
        />
        <ProxyTargetsField
          targets={form.proxyTargets}
          invalid={invalid === 'proxyPass' ? refusedTargets(form.proxyTargets, refusedPlaces) : []}
          error={invalid === 'proxyPass' ? refusal : undefined}
          onChange={(proxyTargets) => onChange({ proxyTargets })}
        />
        <TextField
          label="Max body size"
          value={form.maxBodySize}
          onChange={(e) => onChange({ maxBodySize: e.target.value })}
          hint="Largest upload, e.g. 512M or 100k (0: no limit)"
          autoComplete="off"
          spellCheck={false}
          {...mark('maxBodySize')}
        />
        <TextField
          label="Static files root"
          className="md:col-span-2"
          value={form.staticRoot}
          onChange={(e) => onChange({ staticRoot: e.target.value })}
          hint="An absolute folder nginx serves directly, such as the built web client (dist/client)"
          autoComplete="off"
          spellCheck={false}
          {...mark('staticRoot')}
        />

        <fieldset className="grid gap-3 rounded-xl border border-white/10 bg-black/20 p-4 md:col-span-2 sm:grid-cols-3">
          <legend className="px-1 text-sm font-medium text-stone-300">Features</legend>
          <CheckboxField
            label="SSL enabled"
            checked={form.sslEnabled}
            onChange={(sslEnabled) => onChange({ sslEnabled })}
          />
          <CheckboxField
            label="Gzip compression"
            checked={form.gzipEnabled}
            onChange={(gzipEnabled) => onChange({ gzipEnabled })}
          />
          <CheckboxField
            label="Static cache"
            checked={form.cacheEnabled}
            onChange={(cacheEnabled) => onChange({ cacheEnabled })}
          />
        </fieldset>

        {form.sslEnabled && (
          <TextField
            label="HTTPS port"
            type="number"
            inputMode="numeric"
            min={1}
            max={65535}
            value={form.sslPort}
            onChange={(e) => onChange({ sslPort: e.target.value })}
            hint="Plain HTTP then redirects here."
            {...mark('sslPort')}
          />
        )}

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end md:col-span-2">
          <Button variant="secondary" onClick={onRestart} disabled={busy !== null}>
            {nothingRunning
              ? busy === 'restart'
                ? 'Starting...'
                : 'Start Nginx'
              : busy === 'restart'
                ? 'Restarting...'
                : 'Restart Nginx'}
          </Button>
          <Button type="submit" disabled={busy !== null}>
            {busy === 'save' ? 'Saving...' : 'Save Configuration'}
          </Button>
        </div>
        {children && <div className="space-y-3 md:col-span-2">{children}</div>}
        <p className="rounded-lg border border-amber-400/30 bg-amber-400/10 px-3.5 py-2.5 text-sm text-amber-100 md:col-span-2">
          Restarting Nginx may briefly interrupt service. Make sure the configuration is right first: every
          save is tested with <code className="font-mono">nginx -t</code> before it goes live.
        </p>
      </form>
    </Card>
  );
}
