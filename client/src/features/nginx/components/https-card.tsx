import { CERTIFICATE_FIELD_LABELS, type CertificateAuthority, domainProblem } from '@common/certificates';
import type { CertificateStatus } from '@common/schemas/certificates';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FormMessage } from '../../../components/ui/form-message';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import type { CertificateRequestForm } from '../api';

const AUTHORITIES: ReadonlyArray<{ value: CertificateAuthority; label: string }> = [
  { value: 'letsencrypt', label: "Let's Encrypt" },
  { value: 'letsencrypt-staging', label: "Let's Encrypt staging (a trial)" },
  { value: 'custom', label: 'Another ACME directory' },
];

export interface HttpsCardProps {
  status: CertificateStatus | undefined;
  busy: boolean;
  /** A field the server refused, with its words. */
  refused: { field?: string; message: string } | null;
  onObtain: (request: CertificateRequestForm) => void;
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
const moment = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * HTTPS by itself: the coach's domain and "Get a certificate" (from Let's Encrypt by default),
 * the certificate nginx serves now and when it renews, and the last try in plain words.
 */
export function HttpsCard({ status, busy, refused, onObtain }: HttpsCardProps) {
  const [form, setForm] = useState<CertificateRequestForm>({ domain: '', authority: 'letsencrypt' });
  const [checked, setChecked] = useState(false);
  const [loaded, setLoaded] = useState(false);
  // Filled from the saved domain once, when it arrives: a later refresh never overwrites typing.
  useEffect(() => {
    if (!status || loaded) return;
    setLoaded(true);
    setForm({
      domain: status.domain ?? '',
      authority: status.authority,
      directoryUrl: status.directoryUrl && status.authority === 'custom' ? status.directoryUrl : '',
      email: status.email,
    });
  }, [status, loaded]);

  const domainError = checked ? domainProblem(form.domain.trim()) : null;
  const fieldError = (field: string) =>
    field === 'domain' && domainError ? domainError : refused?.field === field ? refused.message : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (domainProblem(form.domain.trim())) return;
    onObtain({ ...form, domain: form.domain.trim() });
  }

  const certificate = status?.certificate;
  const lastTry = status?.lastTry;
  return (
    <Card className="sm:p-6">
      <h2 className="text-lg font-semibold text-white">HTTPS certificate</h2>
      <p className="mt-1 text-sm text-stone-400">
        Point your domain's DNS at this server, keep port 80 open, then get a free certificate. It is
        installed at once and renewed by itself.
      </p>
      {status?.ownCertificate && (
        <p className="mt-4 text-sm text-amber-200">
          NGINX_SSL_CERT and NGINX_SSL_KEY are set: nginx uses that certificate, and none is obtained here.
        </p>
      )}
      {certificate && (
        <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2" data-testid="certificate-facts">
          <Fact term="Serving a certificate for" value={certificate.domain} />
          <Fact term="Issued by" value={certificate.issuer} />
          <Fact term="Valid until" value={day(certificate.notAfter)} />
          <Fact term="Renews by itself on" value={day(certificate.renewsAt)} />
        </dl>
      )}
      {lastTry && (
        <div className="mt-4">
          <FormMessage tone={lastTry.ok ? 'success' : 'error'}>
            {`${moment(lastTry.at)}: ${lastTry.message}${
              status?.nextTryAfter ? ` The next try can start after ${moment(status.nextTryAfter)}.` : ''
            }`}
          </FormMessage>
        </div>
      )}
      {!loaded && <p className="mt-5 text-sm text-stone-400">Loading…</p>}
      <form className="mt-5 space-y-4" onSubmit={submit} noValidate hidden={!loaded}>
        <TextField
          label={CERTIFICATE_FIELD_LABELS.domain}
          value={form.domain}
          placeholder="coach.example.com"
          autoComplete="off"
          spellCheck={false}
          hint="The name alone, without http:// (one name; www.… is another name)."
          error={fieldError('domain')}
          onChange={(event) => setForm({ ...form, domain: event.target.value })}
        />
        <SelectField
          label={CERTIFICATE_FIELD_LABELS.authority}
          value={form.authority}
          options={AUTHORITIES}
          hint={
            form.authority === 'letsencrypt-staging'
              ? 'The same steps with higher limits; browsers do not trust its certificates.'
              : undefined
          }
          onChange={(event) => setForm({ ...form, authority: event.target.value as CertificateAuthority })}
        />
        {form.authority === 'custom' && (
          <TextField
            label={CERTIFICATE_FIELD_LABELS.directoryUrl}
            value={form.directoryUrl ?? ''}
            placeholder="https://acme.example.com/directory"
            error={fieldError('directoryUrl')}
            onChange={(event) => setForm({ ...form, directoryUrl: event.target.value })}
          />
        )}
        <TextField
          label={`${CERTIFICATE_FIELD_LABELS.email} (optional)`}
          type="email"
          value={form.email ?? ''}
          hint="The certificate authority writes here if something needs you."
          error={fieldError('email')}
          onChange={(event) => setForm({ ...form, email: event.target.value })}
        />
        {refused && !refused.field && <FormMessage tone="error">{refused.message}</FormMessage>}
        <Button type="submit" disabled={busy || status?.ownCertificate}>
          {busy ? 'Getting a certificate…' : 'Get a certificate'}
        </Button>
      </form>
    </Card>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="rounded-xl border border-white/10 bg-black/20 px-4 py-3">
      <dt className="text-xs font-medium uppercase tracking-wider text-stone-400">{term}</dt>
      <dd className="mt-1 break-words font-mono text-stone-100">{value}</dd>
    </div>
  );
}
