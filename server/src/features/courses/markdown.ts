import type sanitizeHtml from 'sanitize-html';
import { escapeHtml } from '../../lib/escape-html';

/**
 * What survives: text formatting, headings, lists, quotes, code, tables, links and pictures.
 * No script, style, form, frame, embed or object of any kind; no event handler or style
 * attribute; links only to http(s), mailto and the site's own paths; pictures only from the
 * site itself (the pages' Content-Security-Policy would refuse others anyway).
 */
const RULES: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'strong',
    'b',
    'em',
    'i',
    'del',
    's',
    'sub',
    'sup',
    'mark',
    'blockquote',
    'ul',
    'ol',
    'li',
    'code',
    'pre',
    'kbd',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'input',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
    // GitHub task lists: a disabled checkbox, nothing else.
    input: ['type', 'checked', 'disabled'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Whatever a discarded tag held is dropped too, not shown as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^(https?:)?\/\//i.test(attribs.href ?? '');
      return {
        tagName,
        attribs: external ? { ...attribs, rel: 'noopener noreferrer nofollow', target: '_blank' } : attribs,
      };
    },
    input: (_tagName, attribs) =>
      attribs.type === 'checkbox'
        ? {
            tagName: 'input',
            attribs: {
              type: 'checkbox',
              disabled: '',
              ...(attribs.checked !== undefined ? { checked: '' } : {}),
            },
          }
        : { tagName: 'span', attribs: {} },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !isOwnPath(frame.attribs.src ?? ''),
};
RULES.allowedAttributes = { ...RULES.allowedAttributes, a: ['href', 'title', 'rel', 'target'] };

/** A path on this site: starts with one slash, never two, no scheme. */
function isOwnPath(src: string): boolean {
  return /^\/(?!\/)/.test(src) && !/[\\\s]/.test(src);
}

/**
 * Markdown to HTML that is safe to put in a page as it is (marked, then sanitize-html). Both
 * packages load with the first lesson rendered (a save or a preview), not when the server starts:
 * together about 18 MB of every server process, and most never render one (docs/performance.md).
 * Lessons are read as the HTML saved with them.
 */
export async function renderMarkdown(markdown: string): Promise<string> {
  pipeline ??= loadPipeline();
  return (await pipeline)(markdown);
}

let pipeline: Promise<(markdown: string) => string> | undefined;

async function loadPipeline(): Promise<(markdown: string) => string> {
  const [{ Marked }, { default: sanitize }] = await Promise.all([import('marked'), import('sanitize-html')]);
  const marked = new Marked({
    gfm: true,
    breaks: false,
    async: false,
    // The lesson's title is the page's one h1: the text's own headings start a level below.
    walkTokens(token) {
      if (token.type === 'heading') token.depth = Math.min(6, token.depth + 1);
    },
  });
  return (markdown) => sanitize(marked.parse(markdown) as string, RULES).trim();
}

/** A lesson picture's width: the text column beside the outline (at most about 800 px), or the screen. */
const LESSON_PICTURE_SIZES = '(min-width: 1024px) 800px, 100vw';

/** A library picture as `renderMarkdown` writes it: the start of its tag, its `src` (escaped). */
const LIBRARY_IMG = /<img src="(\/media\/image\/[^"]+)"/g;

/** The media library pictures (`/media/image/…`) a lesson's HTML shows, each once. */
export function libraryPictureUrls(html: string): string[] {
  return [...new Set([...html.matchAll(LIBRARY_IMG)].map(([, src]) => unescapeHtml(src!)))];
}

/**
 * A lesson's HTML (as `renderMarkdown` made it) with each media library picture offered in its
 * resized copies (`srcset`), so a phone never loads a camera original. Done when the lesson is
 * read, not when it is saved: copies are made after the upload, and renamed when it changes.
 */
export async function withPictureCopies(
  html: string,
  copiesOf: (urls: string[]) => Promise<Map<string, string>>,
): Promise<string> {
  const urls = [...html.matchAll(LIBRARY_IMG)].map(([, src]) => unescapeHtml(src!));
  if (urls.length === 0) return html;
  const copies = await copiesOf(urls);
  return html.replace(LIBRARY_IMG, (whole, src: string) => {
    const srcset = copies.get(unescapeHtml(src));
    return srcset
      ? `<img src="${src}" srcset="${escapeHtml(srcset)}" sizes="${LESSON_PICTURE_SIZES}" loading="lazy" decoding="async"`
      : whole;
  });
}

/** A course's own picture as `renderMarkdown` writes it (`/course-pictures/<course>/<name>`). */
const COURSE_IMG = /<img src="\/course-pictures\/([0-9a-f]{24})\/([0-9a-f]{32}\.[a-z]{1,5})"/g;

/** The course's own pictures a lesson's HTML shows (`/course-pictures/…`), each once. */
export function coursePictureUrls(html: string): string[] {
  return [
    ...new Set(
      [...html.matchAll(COURSE_IMG)].map(([, course, name]) => `/course-pictures/${course}/${name}`),
    ),
  ];
}

/**
 * A lesson's HTML with each of its course's pictures given its signed link for this viewer
 * (`sign`, the stored name to the link), made when the lesson is answered: the stored HTML
 * names no link, and a lesson's picture has no public address.
 */
export function withSignedPictures(html: string, sign: (storedName: string) => string): string {
  return html.replace(
    COURSE_IMG,
    (_whole, _course: string, name: string) => `<img src="${escapeHtml(sign(name))}"`,
  );
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
