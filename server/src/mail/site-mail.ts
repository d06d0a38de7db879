import { escapeHtml } from '../lib/escape-html';
import type { OutgoingMail } from './mail-queue';

/**
 * A mail as the site sends it: from the site's name (the console's Site section), its subject
 * starting with that name, greeting and words as the feature wrote them, signed with the name.
 */
export function fromSite(siteName: string, mail: OutgoingMail): OutgoingMail {
  return {
    ...mail,
    fromName: siteName,
    subject: `${siteName}: ${mail.subject}`,
    text: `${mail.text}\n\n— ${siteName}`,
    ...(mail.html ? { html: `${mail.html}\n<p>— ${escapeHtml(siteName)}</p>` } : {}),
  };
}
