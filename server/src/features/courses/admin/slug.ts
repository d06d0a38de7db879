/** Addresses under /api/courses/ that a course may not take (the routes use them). */
export const RESERVED_SLUGS = new Set(['home', 'lessons', 'settings', 'new']);

/** A course's address made from its title: "Morning Practice — Week 1" → "morning-practice-week-1". */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 72)
    .replace(/-+$/, '');
  return slug && !RESERVED_SLUGS.has(slug) ? slug : `course${slug ? `-${slug}` : ''}`;
}

/** `base`, else `base-2`, `base-3`… the first that `taken` says is free. */
export async function freeSlug(base: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
  return `${base}-${Date.now().toString(36)}`;
}
