import type Stripe from 'stripe';

/** The resources the site's calls need, each proved by a harmless read, and why the site needs it. */
export const PERMISSIONS: Array<{
  label: string;
  what: string;
  why: string;
  /** What the restricted key needs of it: the site reads some resources only. */
  access?: 'Read';
  read: (client: Stripe) => Promise<unknown>;
}> = [
  {
    label: 'Customers',
    what: 'customers',
    why: 'Without it no member can upgrade.',
    read: (client) => client.customers.list({ limit: 1 }),
  },
  {
    label: 'Subscriptions',
    what: 'subscriptions',
    why: 'Without it every event from Stripe fails: members would pay and stay free.',
    read: (client) => client.subscriptions.list({ limit: 1, status: 'all' }),
  },
  {
    label: 'Checkout Sessions',
    what: 'checkout sessions',
    why: 'Without it the Upgrade button fails.',
    read: (client) => client.checkout.sessions.list({ limit: 1 }),
  },
  {
    label: 'Customer portal',
    what: 'the Customer Portal',
    why: 'Without it Manage billing fails.',
    read: async (client) => (await client.billingPortal.configurations.list({ limit: 1 })).data.length > 0,
  },
  {
    label: 'PaymentIntents',
    what: 'payment intents',
    access: 'Read',
    why: 'Without it a course bought on its own is never opened to its buyer, nor closed on a refund.',
    read: (client) => client.paymentIntents.list({ limit: 1 }),
  },
  {
    label: 'Charges',
    what: 'charges',
    access: 'Read',
    why: 'Without it a refunded course is never closed again.',
    read: (client) => client.charges.list({ limit: 1 }),
  },
];
