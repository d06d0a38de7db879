import { SITE_MARKS } from '@common/site';
import { Link } from 'react-router';
import { usePageMeta } from '../../components/page/page-meta';
import { NAV_LINK_CLASS, PageShell } from '../../components/page/page-shell';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormMessage } from '../../components/ui/form-message';
import { readSession } from '../../lib/auth-token';
import { useLogout } from '../../lib/use-logout';
import { MailPreferencesSection } from '../mail/components/mail-preferences-section';
import { BillingSection } from '../payments/components/billing-section';
import { useAccount } from './api';
import { DataSection } from './components/data-section';
import { DeleteSection } from './components/delete-section';
import { EmailSection } from './components/email-section';
import { PasswordSection } from './components/password-section';
import { ProfileSection } from './components/profile-section';
import { SessionsSection } from './components/sessions-section';
import { errorText } from './error-text';

/** The member's own account: name, e-mail, password, membership, sessions, data, deletion. */
export function AccountPage() {
  usePageMeta({ title: 'Your Account', description: `Your ${SITE_MARKS.name} account.` });
  const logout = useLogout();
  const account = useAccount();
  // Administrators come here from the console, members from their dashboard.
  const home =
    readSession()?.role === 'admin'
      ? { to: '/admin/dashboard', label: 'Console' }
      : { to: '/dashboard', label: 'Dashboard' };
  return (
    <PageShell
      nav={
        <>
          <Link to={home.to} className={NAV_LINK_CLASS}>
            {home.label}
          </Link>
          <Button variant="secondary" onClick={logout}>
            Logout
          </Button>
        </>
      }
    >
      <div className="w-full max-w-2xl space-y-6">
        <h1 className="font-display text-4xl text-white">Your Account</h1>
        {account.isPending && (
          <Card>
            <p role="status" className="text-stone-300">
              Loading your account…
            </p>
          </Card>
        )}
        {account.isError && (
          <FormMessage tone="error">{errorText(account.error, 'Could not load your account')}</FormMessage>
        )}
        {account.data && (
          <>
            <ProfileSection user={account.data.user} />
            <BillingSection />
            <EmailSection
              email={account.data.user.email}
              pendingEmail={account.data.pendingEmail}
              cancelled={account.data.cancelledEmailChange}
            />
            <PasswordSection />
            <MailPreferencesSection />
            <SessionsSection sessions={account.data.sessions} />
            <DataSection />
            <DeleteSection role={account.data.user.role} retentionDays={account.data.activityRetentionDays} />
          </>
        )}
      </div>
    </PageShell>
  );
}
