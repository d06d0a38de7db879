/**
 * `/robots.txt`: search engines may read the public pages, never the console, a member's own
 * pages, the API, lesson files or one-time links; the sitemap is named by its absolute address.
 */
export const DISALLOWED = [
  '/admin',
  '/account',
  '/dashboard',
  '/api/',
  '/lesson-files/',
  '/confirm-email',
  '/reset-password/',
] as const;

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    'Allow: /',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
