import {
  MAX_PRICES,
  type PaymentsField,
  type PaymentsSettingsView,
  type SecretState,
} from '@common/schemas/payments';
import type { FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { type SellingDraft, SellingOptions } from './selling-options';

/** The form as typed: secrets start blank (they are never sent back), prices as comma-separated text. */
export interface SettingsDraft extends SellingDraft {
  secretKey: string;
  webhookSecret: string;
  priceIds: string;
}

export interface SettingsFormProps {
  view: PaymentsSettingsView;
  draft: SettingsDraft;
  busy: 'save' | 'test' | null;
  onChange: (change: Partial<SettingsDraft>) => void;
  onSave: () => void;
  onTest: () => void;
  onDisconnect: () => void;
}

const secretHint = (state: SecretState, what: string) =>
  state.set
    ? `A ${what} is set (ending in ${state.last4}). Leave blank to keep it.`
    : `No ${what} is set yet.`;

/** Stripe's key, the webhook signing secret and the prices, with Test, Save and Disconnect. */
export function SettingsForm({
  view,
  draft,
  busy,
  onChange,
  onSave,
  onTest,
  onDisconnect,
}: SettingsFormProps) {
  const fixed = view.fixedByEnvironment;
  const hint = (field: PaymentsField, usual: string) =>
    fixed[field] ? `Set by the ${fixed[field]} environment variable, so it is read-only here.` : usual;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  const anythingSaved =
    (view.secretKey.set && !fixed.secretKey) ||
    (view.webhookSecret.set && !fixed.webhookSecret) ||
    (view.priceIds.length > 0 && !fixed.priceIds);

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <h2 className="text-lg font-semibold text-white">Stripe settings</h2>
      <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
        <PasswordField
          label="Secret key"
          autoComplete="off"
          spellCheck={false}
          placeholder={view.secretKey.set ? `•••• ${view.secretKey.last4}` : 'sk_test_… or rk_test_…'}
          value={draft.secretKey}
          disabled={Boolean(fixed.secretKey)}
          onChange={(e) => onChange({ secretKey: e.target.value })}
          hint={hint(
            'secretKey',
            `${secretHint(view.secretKey, 'key')} A restricted key (rk_…) with the permissions listed below is enough.`,
          )}
        />
        <PasswordField
          label="Webhook signing secret"
          autoComplete="off"
          spellCheck={false}
          placeholder={view.webhookSecret.set ? `•••• ${view.webhookSecret.last4}` : 'whsec_…'}
          value={draft.webhookSecret}
          disabled={Boolean(fixed.webhookSecret)}
          onChange={(e) => onChange({ webhookSecret: e.target.value })}
          hint={hint(
            'webhookSecret',
            `${secretHint(view.webhookSecret, 'signing secret')} Stripe shows it on the webhook endpoint’s page.`,
          )}
        />
        <TextField
          className="md:col-span-2"
          label="Price IDs of the Architect Tier"
          spellCheck={false}
          placeholder="price_… , price_…"
          value={draft.priceIds}
          disabled={Boolean(fixed.priceIds)}
          onChange={(e) => onChange({ priceIds: e.target.value })}
          hint={hint(
            'priceIds',
            `Up to ${MAX_PRICES} recurring prices: tick them in “Your prices in Stripe” below, or paste their IDs separated by commas. Members choose among them.`,
          )}
        />
      </div>
      <SellingOptions
        draft={draft}
        connected={view.secretKey.set || draft.secretKey.trim() !== ''}
        onChange={onChange}
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          {anythingSaved && (
            <button
              type="button"
              onClick={onDisconnect}
              disabled={busy !== null}
              className="w-full rounded-lg px-4 py-2.5 text-sm font-semibold text-red-300 transition-colors hover:bg-red-500/10 hover:text-red-200 disabled:cursor-not-allowed disabled:opacity-50 sm:w-auto"
            >
              Disconnect Stripe
            </button>
          )}
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button variant="secondary" onClick={onTest} disabled={busy !== null} className="w-full sm:w-auto">
            {busy === 'test' ? 'Testing…' : 'Test'}
          </Button>
          <Button type="submit" disabled={busy !== null} className="w-full sm:w-auto">
            {busy === 'save' ? 'Saving...' : 'Save Configuration'}
          </Button>
        </div>
      </div>
    </form>
  );
}
