import { MIN_PASSWORD_LENGTH, RESET_REDIRECT_DELAY_MS } from '@common/constants';
import { PUBLIC_PAGES } from '@common/public-pages';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { Button } from '../../components/ui/button';
import { FormMessage } from '../../components/ui/form-message';
import { PasswordField } from '../../components/ui/password-field';
import { resetPassword } from './api';
import { AuthLayout } from './auth-layout';
import { useSubmit } from './use-submit';

export function ResetPasswordPage() {
  usePageMeta(PUBLIC_PAGES.resetPassword);
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const { onSubmit, error, setError, pending } = useSubmit(async () => {
    await resetPassword(token, password);
    setDone(true);
  }, 'Failed to reset password');

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  return (
    <AuthLayout title="Enter New Password">
      <form
        onSubmit={(event) => {
          if (password !== confirm) {
            event.preventDefault();
            setError('Passwords do not match');
            return;
          }
          void onSubmit(event);
        }}
        className="space-y-4"
      >
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <PasswordField
          label="Confirm New Password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        {done && <FormMessage tone="success">Password reset successful! Redirecting to login...</FormMessage>}
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <Button type="submit" disabled={pending || done} className="w-full">
          Reset Password
        </Button>
      </form>
    </AuthLayout>
  );
}
