import { OwnerPageLayout } from './owner-page-layout';

export function AboutPage() {
  return <OwnerPageLayout name="about" />;
}
