import { OwnerPageLayout } from './owner-page-layout';

export function ContactPage() {
  return <OwnerPageLayout name="contact" />;
}
