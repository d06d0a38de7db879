import type { PaymentsSettingsView } from '@common/schemas/payments';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

/** What a restricted key needs, and why: every call the site makes to Stripe, and nothing else. */
export const KEY_PERMISSIONS = [
  {
    resource: 'Customers',
    access: 'Write',
    why: 'one Stripe customer per member, made at their first upgrade',
  },
  { resource: 'Checkout Sessions', access: 'Write', why: 'the payment page the Upgrade button opens' },
  { resource: 'Customer portal', access: 'Write', why: 'the page Manage billing opens' },
  {
    resource: 'Subscriptions',
    access: 'Write',
    why: 'each event is checked against the subscription as it is now; deleting an account cancels it',
  },
  { resource: 'Prices', access: 'Read', why: 'the amounts on the Upgrade buttons, the price list, and Test' },
  {
    resource: 'PaymentIntents',
    access: 'Read',
    why: 'a course bought on its own is opened once its payment is read',
  },
  { resource: 'Charges', access: 'Read', why: 'a course refunded in full is closed again' },
] as const;

const CODE = 'rounded bg-black/40 px-1.5 py-0.5 font-mono text-[0.8rem] text-accent-200';

/** Step by step, what to do in Stripe's dashboard: test mode, the key, the webhook, the prices. */
export function ConnectSteps({ view }: { view: PaymentsSettingsView }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(view.webhookUrl).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <Card>
      <h2 className="text-lg font-semibold text-white">Connecting Stripe, step by step</h2>
      <ol className="mt-4 list-decimal space-y-4 pl-5 text-sm text-stone-300 marker:text-stone-500">
        <li>
          Start in <strong className="text-stone-100">test mode</strong> (the switch at the top of Stripe’s
          dashboard): nothing is charged, and Stripe’s test card 4242 4242 4242 4242 pays. Switch to live keys
          once a test member has upgraded end to end.
        </li>
        <li>
          <p>
            Create a <strong className="text-stone-100">restricted key</strong> (Developers → API keys →
            Create restricted key) with these permissions, everything else None, and paste it above:
          </p>
          <ul className="mt-2 grid gap-1.5 sm:grid-cols-2">
            {KEY_PERMISSIONS.map((permission) => (
              <li
                key={permission.resource}
                className="rounded-lg border border-white/10 bg-black/20 px-3 py-2"
              >
                <span className="font-medium text-stone-100">{permission.resource}</span>:{' '}
                <span className="text-accent-300">{permission.access}</span>
                <span className="block text-xs text-stone-400">{permission.why}</span>
              </li>
            ))}
          </ul>
        </li>
        <li>
          <p>
            Add a <strong className="text-stone-100">webhook endpoint</strong> (Developers → Webhooks) at this
            address:
          </p>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-center">
            <code className={`${CODE} break-all py-2`}>{view.webhookUrl}</code>
            <Button variant="secondary" onClick={copy} className="shrink-0 px-3 py-1.5 text-xs">
              {copied ? 'Copied' : 'Copy address'}
            </Button>
          </div>
          <p className="mt-2">with these events, then paste its signing secret above:</p>
          <ul className="mt-2 flex flex-wrap gap-1.5">
            {view.webhookEvents.map((event) => (
              <li key={event} className={CODE}>
                {event}
              </li>
            ))}
          </ul>
        </li>
        <li>
          Create the <strong className="text-stone-100">product</strong> “Architect Tier” with a recurring
          price (a monthly and a yearly one, if you like), and paste each price’s ID above: it starts with{' '}
          <span className={CODE}>price_</span>.
        </li>
        <li>
          Press <strong className="text-stone-100">Test</strong>, then{' '}
          <strong className="text-stone-100">Save</strong>. Turn on the Customer Portal in Stripe’s settings
          (Billing → Customer portal) so that members can change their card or cancel.
        </li>
      </ol>
      {view.apiBase && (
        <p className="mt-4 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3.5 py-2.5 text-sm text-amber-100">
          STRIPE_API_BASE sends this site’s calls to {view.apiBase}, not to Stripe.
        </p>
      )}
    </Card>
  );
}
