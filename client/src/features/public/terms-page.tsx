import { BRAND_NAME } from '@common/constants';
import { PUBLIC_PAGES } from '@common/public-pages';
import { Link } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { PageShell } from '../../components/page/page-shell';
import { Card } from '../../components/ui/card';

export function TermsPage() {
  usePageMeta(PUBLIC_PAGES.terms);
  return (
    <PageShell>
      <Card className="max-w-2xl">
        <h1 className="font-display text-3xl text-white">Terms of Service</h1>
        <div className="mt-4 space-y-3 text-sm leading-relaxed text-stone-300">
          <p>
            By creating an account with {BRAND_NAME} you agree to use the site and its materials for your own
            personal development, and not to share your account or redistribute course content.
          </p>
          <p>
            We keep your name and e-mail address to run your account and to send you messages you ask for,
            such as a password reset link. We do not sell your information.
          </p>
          <p>You may close your account at any time by contacting us.</p>
        </div>
        <Link to="/join" className="mt-6 inline-block font-semibold text-accent-300 hover:text-accent-400">
          Back to registration
        </Link>
      </Card>
    </PageShell>
  );
}
