import { PUBLIC_PAGES } from '@common/public-pages';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { TextField } from '../../components/ui/text-field';
import { forgotPassword } from './api';
import { AuthLayout, LINK_CLASS } from './auth-layout';
import { useSubmit } from './use-submit';

export function ForgotPasswordPage() {
  usePageMeta(PUBLIC_PAGES.forgotPassword);
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState('');
  const { onSubmit, error, pending } = useSubmit(async () => {
    setSent('');
    setSent((await forgotPassword(email)).message);
  }, 'Something went wrong');

  return (
    <AuthLayout
      title="Reset Password"
      subtitle="Enter your email and we will send you a link to choose a new password."
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {sent && <FormMessage tone="success">{sent}</FormMessage>}
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? 'Sending…' : 'Send Reset Link'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-stone-300">
        Remembered it?{' '}
        <Link to="/login" className={LINK_CLASS}>
          Back to sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
