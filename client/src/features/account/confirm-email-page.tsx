import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { FormMessage } from '../../components/ui/form-message';
import { readSession } from '../../lib/auth-token';
import { confirmEmail } from '../auth/api';
import { AuthLayout, LINK_CLASS } from '../auth/auth-layout';
import { errorText } from './error-text';

const TOKEN_IN_FRAGMENT = /^#token=([A-Za-z0-9_-]+)$/;

/**
 * Opened from the link mailed to a new address: `/confirm-email#token=…`. The token is in the
 * fragment, which browsers never send, so no server or proxy log can keep it; it is removed from
 * the address bar at once and sent once in a request body.
 */
export function ConfirmEmailPage() {
  usePageMeta({ title: 'Confirm E-mail', description: 'Confirm the new e-mail address of your account.' });
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // The link works once: React's development double effect must not spend it twice.
    if (started.current) return;
    started.current = true;
    const token = TOKEN_IN_FRAGMENT.exec(window.location.hash)?.[1];
    window.history.replaceState(null, '', window.location.pathname);
    if (!token) {
      setResult({ tone: 'error', text: 'This confirmation link is invalid or has expired.' });
      return;
    }
    confirmEmail(token).then(
      (answer) => setResult({ tone: 'success', text: answer.message }),
      (error: unknown) =>
        setResult({ tone: 'error', text: errorText(error, 'Could not confirm your e-mail address') }),
    );
  }, []);

  const signedIn = readSession() !== null;
  return (
    <AuthLayout title="Confirm E-mail">
      <div className="space-y-5">
        {result ? (
          <FormMessage tone={result.tone}>{result.text}</FormMessage>
        ) : (
          <p role="status" className="text-stone-300">
            Confirming your new e-mail address…
          </p>
        )}
        {result && (
          <p className="text-sm text-stone-300">
            {signedIn ? (
              <Link to="/account" className={LINK_CLASS}>
                Back to your account
              </Link>
            ) : (
              <Link to="/login" className={LINK_CLASS}>
                Sign in
              </Link>
            )}
          </p>
        )}
      </div>
    </AuthLayout>
  );
}
