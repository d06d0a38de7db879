import { nextPageOf, withNextPage } from '@common/next-page';
import { PUBLIC_PAGES } from '@common/public-pages';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { preloadRoute } from '../../components/page/lazy-page';
import { usePageMeta } from '../../components/page/page-meta';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { PasswordField } from '../../components/ui/password-field';
import { TextField } from '../../components/ui/text-field';
import { takeNotice } from '../../lib/next-page-notice';
import { useHydrated } from '../../lib/use-hydrated';
import { login } from './api';
import { AuthLayout, LINK_CLASS } from './auth-layout';
import { useSubmit } from './use-submit';

export function LoginPage() {
  usePageMeta(PUBLIC_PAGES.login);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The page that sent the person here (`?next=`, a course to buy); after hydration, as the
  // pre-rendered page has none.
  const next = useHydrated() ? nextPageOf(params) : null;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Why the console signed this person out (account deleted or suspended), shown once.
  // Read after hydration: the pre-rendered page has no such message.
  const [signedOut, setSignedOut] = useState<string | null>(null);
  useEffect(() => {
    const message = takeNotice();
    if (message) setSignedOut(message);
  }, []);
  const { onSubmit, error, pending } = useSubmit(async () => {
    const home = await login({ email, password });
    const destination = next ?? home;
    // Its code arrives while the button still says it is signing in, so the next page shows at once.
    await preloadRoute(destination);
    navigate(destination, { replace: true });
  }, 'Login failed');

  return (
    <AuthLayout title="Welcome Back" subtitle="Sign in to continue your journey.">
      <form onSubmit={onSubmit} className="space-y-4">
        {signedOut && <FormMessage tone="error">{signedOut}</FormMessage>}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="flex justify-end">
          <Link to="/forgot-password" className={`text-sm ${LINK_CLASS}`}>
            Forgot Password?
          </Link>
        </div>
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? 'Signing in…' : 'Sign In'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-stone-300">
        New here?{' '}
        <Link to={withNextPage('/join', next)} className={LINK_CLASS}>
          Create an account
        </Link>
      </p>
    </AuthLayout>
  );
}
