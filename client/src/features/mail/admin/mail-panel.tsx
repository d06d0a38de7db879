import { MailStatusCard } from '../mail-status-card';
import { AnnouncementForm } from './announcement-form';
import { AnnouncementList } from './announcement-list';
import { IdentityCard } from './identity-card';
import { SendingCard } from './sending-card';
import { WelcomeCard } from './welcome-card';

/** The console's Mail section: announcements to members, how they go out, and the outgoing mail queue. */
export function MailPanel() {
  return (
    <section aria-labelledby="mail-panel-heading" className="space-y-6">
      <div>
        <h1 id="mail-panel-heading" className="text-2xl font-semibold text-white sm:text-3xl">
          Mail
        </h1>
        <p className="mt-2 text-stone-300">
          Write to your members, follow what goes out, and see why a message failed.
        </p>
      </div>
      <AnnouncementForm />
      <AnnouncementList />
      <WelcomeCard />
      <SendingCard />
      <IdentityCard />
      <MailStatusCard />
    </section>
  );
}
