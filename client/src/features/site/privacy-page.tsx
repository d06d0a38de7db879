import { OwnerPageLayout } from './owner-page-layout';

export function PrivacyPage() {
  return <OwnerPageLayout name="privacy" />;
}
