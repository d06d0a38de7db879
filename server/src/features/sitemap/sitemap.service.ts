import { PUBLIC_PAGES } from '@common/public-pages';
import type { SharedChanges } from '../shared-state/shared-changes';
import {
  indexClose,
  indexOpen,
  sitemapEntry,
  URLS_PER_FILE,
  urlEntry,
  urlsetClose,
  urlsetOpen,
} from './sitemap-xml';

/** A page for search engines: its path on the site and, when known, when it last changed. */
export interface SitemapPage {
  path: string;
  updatedAt?: Date;
}

/** The course and lesson pages, counted and read from any place in their order (courses/visitor-pages.ts). */
export interface CoursePagesSource {
  count(): Promise<number>;
  pages(from: number): AsyncIterable<SitemapPage>;
}

/** Public pages that are a step of an account's task, not content to find: left out of the sitemap. */
const NOT_LISTED = new Set(['/login', '/forgot-password']);

/** The home page and the other public pages without a parameter, in their list's order. */
const PUBLIC: SitemapPage[] = Object.values(PUBLIC_PAGES)
  .filter((page) => !page.path.includes(':') && !NOT_LISTED.has(page.path))
  .map((page) => ({ path: page.path }));

/** Where the files of a split sitemap are. */
export const SITEMAP_FILES = '/sitemaps';

/** The count is worked out again after any course change, and at least this often (a dated drip opens by itself). */
const COUNT_MAX_AGE_MS = 60_000;

/**
 * What search engines are told about the site: the home page and the other public pages, then
 * every course and lesson page a visitor may open (from the courses feature, a batch at a time).
 * Up to 50,000 addresses `/sitemap.xml` is the list itself; above, it is an index of files of
 * 50,000 each (`/sitemaps/1.xml`, …). Every answer is written as the pages are read, never held
 * whole, and a file starts where its addresses start; only the count is kept (per change of the
 * courses) to know how many files there are.
 */
export class SitemapService {
  private counted: { revision: number; at: number; total: number } | null = null;

  constructor(
    private readonly deps: {
      publicUrl: string;
      coursePages: CoursePagesSource;
      changes: Pick<SharedChanges, 'revision'>;
    },
    /** The protocol's 50,000; tests split at fewer. */
    private readonly perFile = URLS_PER_FILE,
  ) {}

  /** How many files the addresses fill: 1 means `/sitemap.xml` holds them all. */
  async files(): Promise<number> {
    return Math.max(1, Math.ceil((await this.total()) / this.perFile));
  }

  /** `/sitemap.xml`: the addresses themselves, or the index of the files above 50,000. */
  async *main(): AsyncIterable<string> {
    const files = await this.files();
    if (files === 1) {
      yield* this.file(1);
      return;
    }
    yield indexOpen;
    for (let n = 1; n <= files; n++) yield sitemapEntry(`${this.deps.publicUrl}${SITEMAP_FILES}/${n}.xml`);
    yield indexClose;
  }

  /** File `n` (from 1) of the addresses: the n-th 50,000, read as it is sent, from where it starts. */
  async *file(n: number): AsyncIterable<string> {
    let left = this.perFile;
    let chunk = urlsetOpen;
    for await (const page of this.pages((n - 1) * this.perFile)) {
      if (left-- === 0) break;
      chunk += urlEntry(`${this.deps.publicUrl}${page.path}`, page.updatedAt);
      // A few kilobytes at a time: few writes, never the whole file in memory.
      if (chunk.length > 16_384) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}${urlsetClose}`;
  }

  private async *pages(from: number): AsyncIterable<SitemapPage> {
    yield* PUBLIC.slice(from);
    yield* this.deps.coursePages.pages(Math.max(0, from - PUBLIC.length));
  }

  private async total(): Promise<number> {
    const revision = this.deps.changes.revision('courses');
    const kept = this.counted;
    if (kept && kept.revision === revision && Date.now() - kept.at < COUNT_MAX_AGE_MS) return kept.total;
    const total = PUBLIC.length + (await this.deps.coursePages.count());
    this.counted = { revision, at: Date.now(), total };
    return total;
  }
}
