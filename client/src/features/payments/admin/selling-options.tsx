import { MAX_TRIAL_DAYS } from '@common/schemas/payments';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { TextField } from '../../../components/ui/text-field';

export interface SellingDraft {
  promotionCodes: boolean;
  /** As typed: '' for no trial. */
  trialDays: string;
  trialWithoutCard: boolean;
}

/** The trial as the server takes it: null for none; anything typed that is not a number is sent as typed, to be refused in words. */
export function trialDaysOf(typed: string): number | null | string {
  const trimmed = typed.trim();
  if (trimmed === '') return null;
  return /^-?\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The ways to sell the Architect Tier beyond its prices: promotion codes at checkout (the codes
 * are made in Stripe) and a free trial, with or without a card. Saved with the form.
 */
export function SellingOptions({
  draft,
  connected,
  onChange,
}: {
  draft: SellingDraft;
  /** A key is set or typed: promotion codes need Stripe. */
  connected: boolean;
  onChange: (change: Partial<SellingDraft>) => void;
}) {
  return (
    <fieldset className="space-y-4 rounded-xl border border-white/10 p-4">
      <legend className="px-1 text-sm font-semibold text-white">Ways to sell</legend>
      <div>
        <CheckboxField
          label="Members may enter a promotion code at checkout"
          checked={draft.promotionCodes}
          onChange={(promotionCodes) => onChange({ promotionCodes })}
        />
        <p className="mt-1 pl-7 text-xs text-stone-400">
          {connected
            ? 'Make the codes in Stripe (Product catalogue → Coupons → Promotion codes). A member sees their discount on their account page while it applies.'
            : 'Connect Stripe first: the codes are made in Stripe.'}
        </p>
      </div>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 md:items-start">
        <TextField
          label="Free trial (days)"
          inputMode="numeric"
          placeholder="None"
          value={draft.trialDays}
          onChange={(event) => onChange({ trialDays: event.target.value })}
          hint={`1 to ${MAX_TRIAL_DAYS} days before the first payment; empty for none. Only a member’s first subscription has one.`}
        />
        <div className="md:pt-8">
          <CheckboxField
            label="Start the trial without a card"
            checked={draft.trialWithoutCard}
            onChange={(trialWithoutCard) => onChange({ trialWithoutCard })}
          />
          <p className="mt-1 pl-7 text-xs text-stone-400">
            Stripe asks for no card; unless the member adds one by the trial’s end, the subscription is
            cancelled.
          </p>
        </div>
      </div>
    </fieldset>
  );
}
