import { MIN_PASSWORD_LENGTH } from '@common/constants';
import { nextPageOf, withNextPage } from '@common/next-page';
import { PUBLIC_PAGES } from '@common/public-pages';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { PasswordField } from '../../components/ui/password-field';
import { TextField } from '../../components/ui/text-field';
import { leaveNotice } from '../../lib/next-page-notice';
import { useHydrated } from '../../lib/use-hydrated';
import { JoinPaymentNote } from '../payments/components/join-payment-note';
import { register } from './api';
import { AuthLayout, LINK_CLASS } from './auth-layout';
import { useSubmit } from './use-submit';

export function JoinPage() {
  usePageMeta(PUBLIC_PAGES.join);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The page that sent the person here (`?next=`, a course to buy); after hydration, as the
  // pre-rendered page has none.
  const next = useHydrated() ? nextPageOf(params) : null;
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { onSubmit, error, pending } = useSubmit(async () => {
    // Only these three values are sent; the card fields below never leave the page.
    await register({ name, email, password });
    // The welcome is said by the next page: the course they came to buy, or the home page.
    leaveNotice(`Welcome, ${name.trim()}: your account is ready and you are signed in.`);
    navigate(next ?? '/', { replace: true });
  }, 'Something went wrong');

  return (
    <AuthLayout title="Create Your Account" subtitle="Begin your journey of transformation.">
      <form onSubmit={onSubmit} className="space-y-4">
        <TextField
          label="Full Name"
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          label="Email Address"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Create Password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <CardDetails />
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? 'Enrolling…' : 'Complete Enrollment'}
        </Button>
        <p className="text-center text-xs text-stone-400">
          By enrolling you agree to our{' '}
          <Link to="/terms" className={LINK_CLASS}>
            Terms of Service
          </Link>
          .
        </p>
      </form>
      <p className="mt-6 text-center text-sm text-stone-300">
        Already a member?{' '}
        <Link to={withNextPage('/login', next)} className={LINK_CLASS}>
          Sign in
        </Link>
      </p>
    </AuthLayout>
  );
}

/**
 * The 'Architect Tier' card section of the spec. Its inputs have no name and are not read on
 * submit: payment is not taken by this site, and card numbers must never reach our server.
 */
function CardDetails() {
  return (
    <fieldset aria-describedby="payment-note" className="rounded-xl border border-white/10 bg-white/5 p-4">
      <legend className="px-1 text-sm font-semibold text-stone-200">
        Payment Details (For Architect Tier)
      </legend>
      <p id="payment-note" className="mb-3 text-sm text-stone-300">
        No payment is taken when you enrol, and card details are not stored or sent anywhere.
      </p>
      <JoinPaymentNote />
      <div className="space-y-3">
        <TextField
          label="Card Number"
          inputMode="numeric"
          autoComplete="off"
          placeholder="1234 5678 9012 3456"
        />
        <div className="grid grid-cols-2 gap-3">
          <TextField label="Expiry" autoComplete="off" placeholder="MM / YY" />
          <TextField label="CVC" inputMode="numeric" autoComplete="off" placeholder="123" />
        </div>
      </div>
    </fieldset>
  );
}
