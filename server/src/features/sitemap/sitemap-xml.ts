/**
 * The sitemap protocol's XML (sitemaps.org/protocol.html): a `urlset` of at most 50,000 `url`
 * entries per file, or a `sitemapindex` naming the files when there are more. Every address is
 * absolute, percent-encoded, then escaped for XML.
 */
export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** The protocol's limit of addresses in one file. */
export const URLS_PER_FILE = 50_000;

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  "'": '&apos;',
  '"': '&quot;',
  '>': '&gt;',
  '<': '&lt;',
};

/** Text made safe inside an XML element: the five characters the protocol names become entities. */
export function xmlText(value: string): string {
  return value.replace(/[&'"<>]/g, (character) => ENTITIES[character] ?? character);
}

/** W3C Datetime, to the second, in UTC. */
const datetime = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

export const urlsetOpen = `${HEAD}<urlset xmlns="${SITEMAP_NAMESPACE}">\n`;
export const urlsetClose = '</urlset>\n';
export const indexOpen = `${HEAD}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n`;
export const indexClose = '</sitemapindex>\n';

export function urlEntry(loc: string, lastmod?: Date): string {
  const modified = lastmod ? `<lastmod>${datetime(lastmod)}</lastmod>` : '';
  return `<url><loc>${xmlText(loc)}</loc>${modified}</url>\n`;
}

export function sitemapEntry(loc: string): string {
  return `<sitemap><loc>${xmlText(loc)}</loc></sitemap>\n`;
}
