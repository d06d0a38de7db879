import { Link } from 'react-router';
import { OwnerPageLayout } from './owner-page-layout';

/** The spec's /terms, linked from registration: the owner's words, and the way back. */
export function TermsPage() {
  return (
    <OwnerPageLayout
      name="terms"
      footer={
        <Link to="/join" className="mt-6 inline-block font-semibold text-accent-300 hover:text-accent-400">
          Back to registration
        </Link>
      }
    />
  );
}
