import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { PUBLIC_PAGES } from '@common/public-pages';
import { describe, expect, it } from 'vitest';
import { deadPaths, repositoryFiles, treeOf } from './test/doc-paths';
import {
  CLIENT,
  COMMON,
  FEATURES,
  importsOf,
  isFile,
  listFiles,
  offenders,
  ROOT,
  ROUTES,
  read,
  SERVER,
  SERVICES,
  staticImports,
  topLevelDeclarations,
  topLevelParts,
} from './test/house';

/**
 * ARCHITECTURE.md's "Rules of the house", and one way per concern, checked by reading the files:
 * each test names the files (and the first line) that break its rule. An exception is listed with
 * its reason, so that a new one is a decision, not an accident.
 */

describe('one way per concern', () => {
  it('writes a whole file through lib/durable-file.ts only', () => {
    // What else takes a name in a folder is a move or an exclusive create, not a whole-file write.
    const notWholeFileWrites: Record<string, string> = {
      'server/src/lib/durable-file.ts': 'the one whole-file writer',
      'server/src/lib/startup-error.ts': 'writes, flushes and removes a probe: can the folder be written?',
      'server/src/mail/mail-queue-files.ts': 'claims a message by moving it between the queue folders',
      'server/src/features/nginx/nginx-files.ts': 'moves the candidate nginx tested into place',
      'server/src/features/media/media-upload.ts': 'an upload streams to a temp file',
      'server/src/features/courses/lesson-files/lesson-upload.ts': 'a lesson file streams to a temp file',
      'server/src/features/media/copies/maker.ts':
        'picture copies are a cache made again from the original: renamed into place, not flushed, readable like the media',
      'server/src/features/media/safe-file-name.ts': 'moves the uploaded temp file under a free name',
      'server/src/store/nedb/import.ts': "moves the old store's files aside once imported",
      'server/src/store/sqlite/lock.ts': 'the lock file is made by an exclusive create',
    };
    const writer =
      /\bimport\s*\{[^}]*\b(?:rename|renameSync|writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|copyFile)\b[^}]*\}\s*from\s*'(?:node:)?fs(?:\/promises)?'|\bimport\s+(?:\*\s+as\s+)?\w+\s+from\s*'(?:node:)?fs(?:\/promises)?'|\.writeFile\(/;
    expect(offenders(SERVER, writer, notWholeFileWrites)).toEqual([]);
  });

  it('keeps the CSV and redaction helpers in lib/, never borrowed from another feature', () => {
    expect(offenders(SERVER, /\b(?:function|const)\s+csv[A-Z]\w*/, { 'server/src/lib/csv.ts': '' })).toEqual(
      [],
    );
    const redaction = /\b(?:function|const)\s+(?:redact[A-Z]\w*|REDACTED\b)|'\[redacted\]'|:\*\*\*@/;
    expect(offenders(SERVER, redaction, { 'server/src/lib/redact.ts': '' })).toEqual([]);
    expect(offenders(FEATURES, /from '\.\.\/[\w-]+\/[\w-]*(?:csv|redact)[\w-]*'/)).toEqual([]);
  });

  it('writes every service as a class', () => {
    expect(offenders(SERVER, /\bexport\s+(?:async\s+)?function\s+create\w*Service\b/)).toEqual([]);
    const withoutClass = SERVICES.filter((file) => !/^export class \w+/m.test(read(file)));
    expect(withoutClass).toEqual([]);
  });

  it('makes every write of a signed-in screen a react-query mutation in its feature’s api.ts', () => {
    const write = /method:\s*'(?:POST|PUT|PATCH|DELETE)'|\{\s*method,|\.open\(\s*'(?:POST|PUT|PATCH|DELETE)'/;
    const isApi = (file: string) => /^client\/src\/features\/.+\/api\.ts$/.test(file);
    // Sign-out forgets the token at once; the request must have read it first, which a mutation
    // (its function runs a moment later) would not. Nothing on screen waits for its answer.
    const outsideApi = { 'client/src/lib/use-logout.ts': 'fire-and-forget sign-out' };
    expect(
      offenders(
        CLIENT.filter((file) => !isApi(file)),
        write,
        outsideApi,
      ),
    ).toEqual([]);

    // The public pages' calls: react-query is never loaded by a public page (see below), so their
    // forms submit through useSubmit.
    const publicApi = ['client/src/features/auth/api.ts', 'client/src/features/courses/api.ts'];
    // Calls that are not a change of the screen's data, each said why.
    const notChanges: Record<string, string> = {
      'client/src/features/courses/admin/api.ts: previewMarkdown': 'a POST that renders and saves nothing',
      'client/src/features/site/admin/api.ts: previewPage': 'a POST that renders and saves nothing',
      'client/src/features/courses/admin/api.ts: uploadLessonFile':
        'one file of the upload queue, with its own progress and cancel; the queue refreshes the lesson',
    };
    const notHooks = CLIENT.filter((file) => isApi(file) && !publicApi.includes(file)).flatMap((file) =>
      topLevelDeclarations(read(file))
        .filter((d) => d.exported && !/^use[A-Z]/.test(d.name) && write.test(d.text))
        .filter((d) => !(`${file}: ${d.name}` in notChanges))
        .map((d) => `${file}: ${d.name}`),
    );
    expect(notHooks).toEqual([]);
  });

  it('submits with useSubmit on the public pages only', () => {
    const users = CLIENT.filter((file) => /\buseSubmit\b/.test(read(file)));
    const outsidePublic = users.filter(
      (file) => !/^client\/src\/features\/auth\/(?:[\w-]+-page\.tsx|use-submit\.ts)$/.test(file),
    );
    expect(outsidePublic).toEqual([]);
  });

  it('never loads react-query on a public page', () => {
    const entries = [
      'client/src/main.tsx',
      'client/src/app/not-found-page.tsx',
      'client/src/features/account/confirm-email-page.tsx',
      ...Object.values(PUBLIC_PAGES).flatMap((page) =>
        'module' in page && page.module ? [`client/src/${page.module}`] : [],
      ),
    ];
    const loading = entries.filter((entry) => staticImports(entry).has('@tanstack/react-query'));
    expect(loading).toEqual([]);
  });
});

describe('rules of the house', () => {
  it('routes are thin: an error is an AppError thrown, its body made by errorBody', () => {
    // An error body ({ success: false, code, message, msg }) is made by errorBody alone.
    const errorBodies = SERVER.filter((file) => file !== 'server/src/http/error-handler.ts').flatMap((file) =>
      [...read(file).matchAll(/\{[^{}]*\bsuccess:\s*false\b[^{}]*\}/g)]
        .filter(([body]) => /\b(?:code|msg):/.test(body))
        .map(([body]) => `${file}: ${body.replace(/\s+/g, ' ')}`),
    );
    expect(errorBodies).toEqual([]);
    const handMade = ROUTES.flatMap((file) =>
      [...read(file).matchAll(/reply\.(?:code|status)\(([^)]*)\)/g)]
        .filter(([call, status]) => {
          if (/^\s*[1-3]\d\d\s*$/.test(status ?? '')) return false;
          const sent = read(file).slice(read(file).indexOf(call), read(file).indexOf(call) + 200);
          return !sent.includes('errorBody(');
        })
        .map(([call]) => `${file}: ${call}`),
    );
    expect(handMade).toEqual([]);
  });

  it('services throw AppError (or a kind of it) and never see a reply', () => {
    const appErrors = new Set(['AppError']);
    for (const file of SERVER)
      for (const [, name] of read(file).matchAll(/class (\w+) extends AppError\b/g))
        appErrors.add(name ?? '');
    const otherThrows = SERVICES.flatMap((file) =>
      [...read(file).matchAll(/throw new (\w+)\(/g)]
        .filter(([, name]) => !appErrors.has(name ?? ''))
        .map(([found]) => `${file}: ${found}`),
    );
    expect(otherThrows).toEqual([]);
    expect(offenders(SERVICES, /\bFastifyReply\b/)).toEqual([]);
    // ctx.activity.record(request, …) reads who did it and from where, for every feature's routes.
    const readsRequest = { 'server/src/features/activity/activity.service.ts': 'who and from where' };
    expect(offenders(SERVICES, /\bFastifyRequest\b/, readsRequest)).toEqual([]);
  });

  it('repositories are the only code touching the store’s collections', () => {
    // A type argument may hold its own (`collection<SettingsDoc<T>>('settings')`).
    const collection = /\.collection(?:<[^()]*>)?\(\s*['"`]/;
    expect(collection.test("store.collection<SettingsDoc<T>>('settings')")).toBe(true);
    const touching = SERVER.filter(
      (file) =>
        !file.endsWith('.repository.ts') &&
        !file.startsWith('server/src/store/') &&
        // The changes and leases collections: these two are their only code, their repositories.
        file !== 'server/src/features/shared-state/shared-changes.ts' &&
        file !== 'server/src/features/shared-state/store-lease.ts',
    );
    expect(offenders(touching, collection)).toEqual([]);
  });

  it('responses whitelist their fields: routes never hand out a stored document', () => {
    // A stored document (UserDoc, SessionDoc, …) leaves only through its mapper (toPublicUser, …).
    expect(offenders(ROUTES, /\b[A-Z]\w*Doc\b/)).toEqual([]);
    expect(offenders(SERVER, /\b__v\b/)).toEqual([]);
  });
});

describe('docs that cannot drift', () => {
  it('names only paths that exist: every link of the docs, every backticked path in Markdown and comments', () => {
    const files = repositoryFiles();
    const { tree, names } = treeOf(files);
    const dead = files
      .filter((file) => /\.(?:md|tsx?|mjs)$/.test(file))
      .flatMap((file) => deadPaths(file, read(file), tree, names))
      .map(({ file, line, path: named }) => `${file}:${line} ${named}`);
    expect(dead).toEqual([]);
  });
  it('keeps ARCHITECTURE.md a short map: at most 120 lines, each table cell a short line', () => {
    const lines = read('ARCHITECTURE.md').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(120);
    const longCells = lines
      .flatMap((line, i) =>
        line.startsWith('|') ? line.split('|').map((cell) => [i + 1, cell.trim()] as const) : [],
      )
      .filter(([, cell]) => cell.length > 120)
      .map(([line, cell]) => `ARCHITECTURE.md:${line} ${cell.slice(0, 40)}…`);
    expect(longCells).toEqual([]);
  });

  it('docs/console.md describes every console panel: one row of its table per entry of panels.ts', () => {
    const labels = [...read('client/src/features/admin/panels.ts').matchAll(/^\s+label: '([^']+)',$/gm)].map(
      ([, label]) => label ?? '',
    );
    expect(labels.length).toBeGreaterThan(5);
    const rows = new Set([...read('docs/console.md').matchAll(/^\| ([^|]+?) \|/gm)].map(([, cell]) => cell));
    expect(labels.filter((label) => !rows.has(label))).toEqual([]);
  });

  it('a file over 250 lines names its seams in its opening comment', () => {
    const product = [...SERVER, ...CLIENT, ...COMMON].filter((file) => read(file).split('\n').length > 250);
    const silent = product.filter((file) => {
      const opening = read(file).match(/\/\*\*?[\s\S]*?\*\/|(?:^\/\/.*\n)+/m)?.[0] ?? '';
      return !/\bSeams\b/.test(opening);
    });
    expect(silent).toEqual([]);
  });
});

describe('one shape for a feature', () => {
  const FEATURE_FOLDERS = readdirSync(path.join(ROOT, 'server/src/features')).filter((name) =>
    statSync(path.join(ROOT, 'server/src/features', name)).isDirectory(),
  );
  /** Folders of features/ that are no feature, each with its reason. */
  const notFeatures: Record<string, string> = {
    'shared-state': 'what every server process shares (changes, leases): parts of the context, no routes',
    users:
      'the user record (repository, document, passwords, removal, e-mail change): part of the context, no routes',
  };

  it('puts every feature together in one <feature>.feature.ts, which app.ts lists', () => {
    const misshapen = FEATURE_FOLDERS.filter((folder) => !(folder in notFeatures)).filter((folder) => {
      const features = FEATURES.filter(
        (file) => file.endsWith('.feature.ts') && file.startsWith(`server/src/features/${folder}/`),
      );
      return features.length !== 1 || features[0] !== `server/src/features/${folder}/${folder}.feature.ts`;
    });
    expect(misshapen).toEqual([]);
    const strays = FEATURES.filter((file) => /\.(?:feature|module)\.ts$/.test(file)).filter(
      (file) => !/^server\/src\/features\/([\w-]+)\/\1\.feature\.ts$/.test(file),
    );
    expect(strays).toEqual([]);
    // app.ts keeps the hooks and the list: of a feature it imports its .feature.ts alone.
    const parts = importsOf('server/src/app.ts').filter(
      (target) => target.startsWith('server/src/features/') && !target.endsWith('.feature.ts'),
    );
    expect(parts).toEqual([]);
  });

  it('builds no service or repository in a routes file: its feature hands them in', () => {
    expect(offenders(ROUTES, /\bnew\s+\w+(?:Service|Repository)\(/)).toEqual([]);
  });

  it('gives every route factory its parts first, then `ctx`, the slice of the app’s context it reads', () => {
    const factories = ROUTES.flatMap((file) =>
      [...read(file).matchAll(/export function (\w+Routes)\(([^)]*)\)/g)].map(([, name, params]) => ({
        at: `${file}: ${name}`,
        params: topLevelParts(params ?? ''),
      })),
    );
    expect(factories.length).toBeGreaterThan(15);
    const otherwise = factories.filter(
      ({ params }) =>
        !params.at(-1)?.startsWith('ctx:') || params.slice(0, -1).some((param) => param.startsWith('ctx')),
    );
    expect(otherwise.map(({ at }) => at)).toEqual([]);
  });

  it('ties two features one way only', () => {
    const twoWay: Record<string, string> = {
      'playlists <-> slideshow':
        'the slideshow plays playlists; the active playlist is a slideshow setting, which deleting it clears',
    };
    const folderOf = (file: string) => /^server\/src\/features\/([\w-]+)\//.exec(file)?.[1];
    const ties = new Set(
      FEATURES.flatMap((file) =>
        importsOf(file).flatMap((target) => {
          const [from, to] = [folderOf(file), folderOf(target)];
          return from && to && from !== to ? [`${from} -> ${to}`] : [];
        }),
      ),
    );
    const both = [...ties]
      .map((tie) => tie.split(' -> '))
      .filter(([from, to]) => (from ?? '') < (to ?? '') && ties.has(`${to} -> ${from}`))
      .map(([from, to]) => `${from} <-> ${to}`)
      .filter((pair) => !(pair in twoWay));
    expect(both).toEqual([]);
  });

  it('keeps the user record low: users/ imports no other feature, nor what is built on features', () => {
    const upward = FEATURES.filter((file) => file.startsWith('server/src/features/users/')).flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            /^server\/src\/(?:app|app-context|feature)\.ts$/.test(target) ||
            (target.startsWith('server/src/features/') &&
              !/^server\/src\/features\/(?:users|shared-state)\//.test(target)),
        )
        .map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });
});

describe('one way, again', () => {
  it('asks for the password again by the route guard, or by the one callback where the data decide', () => {
    // `reauth.guard`: a route's preHandler, where every call needs it. `reauth.whenNeeded(request)`:
    // the callback a service calls when the data ask for it (ConfirmReauth). `reauth.issue(`: the
    // proof made by POST /api/auth/reauth. No route demands it another way.
    expect(offenders(ROUTES, /\.reauth\.(?!guard\b|whenNeeded\(request\)|issue\()/)).toEqual([]);
    expect(offenders(SERVICES, /\.reauth\.|\bReauthProofs\b/)).toEqual([]);
  });

  it('merges the payment settings’ layers in settings/, with the others', () => {
    // Environment > saved > default: settings/payments-in-force.ts, as config.ts does for the rest.
    const outside = SERVER.filter((file) => !file.startsWith('server/src/settings/'));
    expect(offenders(outside, /\benv\.\w+\s*\?\?\s*saved\b/)).toEqual([]);
  });

  it('imports the course constants from @common/courses alone on the server', () => {
    const constants = new Set(
      [...read('common/courses.ts').matchAll(/^export (?:const|type) (\w+)/gm)].map(([, name]) => name),
    );
    const elsewhere = SERVER.flatMap((file) =>
      [
        ...read(file).matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'@common\/schemas\/courses'/g),
      ].flatMap(([, names]) =>
        (names ?? '')
          .split(',')
          .map((name) => name.replace(/^\s*type\s+/, '').trim())
          .filter((name) => constants.has(name))
          .map((name) => `${file}: ${name}`),
      ),
    );
    expect(elsewhere).toEqual([]);
  });
});

describe('the client’s floors', () => {
  // app/ (the router) stands on the features, the features on components/ and lib/: an import
  // runs down only. The console shell (features/admin/) is a feature the router loads; panels
  // stand beside it and share its kit from components/console/, not from the shell.
  const APP = 'client/src/app/';
  const SHELL = 'client/src/features/admin/';
  const ENTRIES = ['client/src/main.tsx', 'client/src/entry-prerender.tsx'];

  /** Every module a client file imports (static, `export … from` and `import()`), as repository paths. */
  function importsOf(file: string, { lazy = true } = {}): string[] {
    const pattern = lazy
      ? /(?:^(?:import|export)\b[^;'"]*?(?:from\s*)?|\bimport\(\s*)['"](\.[^'"]+)['"]/gm
      : /^(?:import|export)\b[^;'"]*?(?:from\s*)?['"](\.[^'"]+)['"]/gm;
    return [...read(file).matchAll(pattern)].map(([, spec]) => {
      const local = path.posix.join(path.posix.dirname(file), spec ?? '');
      return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((end) => local + end).find(isFile) ?? local;
    });
  }

  /** `file -> imported` for each import of `files` that `wrong` refuses. */
  const importing = (files: string[], wrong: (imported: string) => boolean) =>
    files.flatMap((file) =>
      importsOf(file)
        .filter(wrong)
        .map((imported) => `${file} -> ${imported}`),
    );

  /** The files a module loads before anything is imported lazily. */
  function staticClosure(entry: string, seen = new Set<string>()): Set<string> {
    if (seen.has(entry) || !/\.tsx?$/.test(entry)) return seen;
    seen.add(entry);
    for (const imported of importsOf(entry, { lazy: false })) staticClosure(imported, seen);
    return seen;
  }

  it('imports app/ only from the entries: a page’s kit is in components/page/', () => {
    const outside = CLIENT.filter((file) => !file.startsWith(APP) && !ENTRIES.includes(file));
    expect(importing(outside, (imported) => imported.startsWith(APP))).toEqual([]);
  });

  it('imports the console shell (features/admin/) only from the router: a panel’s kit is in components/console/', () => {
    // The router loads the console's routes lazily, as it loads every page.
    const outside = CLIENT.filter((file) => !file.startsWith(SHELL) && file !== `${APP}router.tsx`);
    expect(importing(outside, (imported) => imported.startsWith(SHELL))).toEqual([]);
  });

  it('keeps components/ and lib/ below every feature and app/', () => {
    const ground = CLIENT.filter((file) => /^client\/src\/(?:components|lib)\//.test(file));
    expect(importing(ground, (imported) => /^client\/src\/(?:features|app)\//.test(imported))).toEqual([]);
  });

  it('keeps a console panel in its feature’s admin/ folder, unless no page loads that feature', () => {
    // The member's and the public's pages (every *-page.tsx of a feature) and the entry with the
    // landing page: what they load must hold no console code.
    const pages = [
      'client/src/main.tsx',
      ...CLIENT.filter((file) => /^client\/src\/features\/.+-page\.tsx$/.test(file)),
    ];
    const loaded = new Set(pages.flatMap((page) => [...staticClosure(page)]));
    const isConsole = (file: string) =>
      file.startsWith(SHELL) || /^client\/src\/features\/[\w-]+\/admin\//.test(file);
    expect([...loaded].filter(isConsole)).toEqual([]);

    const registry = `${SHELL}panels.ts`;
    const panels = importsOf(registry).filter((file) => file !== registry);
    expect(panels.length).toBeGreaterThan(5);
    const misplaced = panels.flatMap((panel) => {
      if (isConsole(panel)) return [];
      const feature = /^client\/src\/features\/[\w-]+\//.exec(panel)?.[0] ?? panel;
      const byPage = [...loaded].find((file) => file.startsWith(feature));
      return byPage
        ? [`${panel}: ${feature} is loaded by the pages (${byPage}), so its panel goes in admin/`]
        : [];
    });
    expect(misplaced).toEqual([]);
  });

  it('says “dashboard” of the member’s page only: the console’s is the overview', async () => {
    const { default: ts } = await import('typescript');
    // The spec's words stay: the addresses /dashboard and /admin/dashboard, the section id
    // 'dashboard' and the screens' labels are strings, not names of the code.
    const member = 'client/src/features/member/dashboard-page.tsx';
    const files = listFiles('client/src').filter((file) => /dashboard/i.test(file) && file !== member);
    expect(files).toEqual([]);
    const names = CLIENT.flatMap((file) => {
      const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
      const found: string[] = [];
      const visit = (node: import('typescript').Node): void => {
        if (ts.isIdentifier(node) && /dashboard/i.test(node.text) && node.text !== 'DashboardPage')
          found.push(`${file}: ${node.text}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
    expect(names).toEqual([]);
  });
});

describe('one place per part, one word per concept (issue 34: the house, second round)', () => {
  it('keeps the media copies in features/media/copies/, named without picture-/video- prefixes', () => {
    const prefixed = listFiles('server/src/features/media').filter((file) =>
      /\/(?:picture|video)-[^/]*$/.test(file),
    );
    expect(prefixed).toEqual([]);
    // The build bundles the copies process from there, and the server looks for what it builds.
    const build = read('scripts/build-server.mjs');
    expect(build).toContain("'server/src/features/media/copies/child.ts'");
    const out = /const COPIES_CHILD_OUT = '([\w-]+)'/.exec(build)?.[1];
    expect(out && read('server/src/features/media/copies/process.ts')).toContain(`'${out}.js'`);
  });

  it('sends files with byte ranges from http/, for /media and lesson files alike', () => {
    const sender = /^export (?:async )?function (?:sendMediaFile|parseRange|limitOpenRange|etagMatches)\b/m;
    expect(FEATURES.filter((file) => sender.test(read(file)))).toEqual([]);
  });

  it('keeps the Stripe adapter in payments/stripe/, its event types in one table', async () => {
    const inStripe = (file: string) => file.startsWith('server/src/features/payments/stripe/');
    expect(listFiles('server/src/features/payments').filter((file) => /\/stripe-[^/]*$/.test(file))).toEqual(
      [],
    );
    expect(
      offenders(
        SERVER.filter((file) => !inStripe(file)),
        /from 'stripe'/,
      ),
    ).toEqual([]);
    const eventType = /['"](?:checkout\.session|customer\.subscription|invoice)\.[\w.]*['"]/;
    const table = { 'server/src/features/payments/stripe/events.ts': 'the one table of Stripe events' };
    expect(offenders([...SERVER, ...COMMON, ...CLIENT], eventType, table)).toEqual([]);
    // Docs cannot import the table: they must list the same types.
    const { WEBHOOK_EVENTS } = await import('./features/payments/stripe/events');
    for (const doc of ['README.md', 'docs/payments.md'])
      expect(WEBHOOK_EVENTS.filter((type) => !read(doc).includes(`\`${type}\``))).toEqual([]);
  });

  it('keeps demo data out of the product: the seed script’s is in scripts/demo/', () => {
    expect(listFiles('server/src').filter((file) => /\/demo[-/][^/]*$/.test(file))).toEqual([]);
  });

  it('says each concept with one word (the CONTEXT.md files’ Language), never the words they avoid', () => {
    const COURSES = [...SERVER, ...COMMON, ...CLIENT].filter((file) =>
      /^(?:server\/src\/features\/courses|client\/src\/features\/courses|common)\//.test(file),
    );
    const avoided: Array<{
      word: string;
      files: string[];
      pattern: RegExp;
      except?: Record<string, string>;
    }> = [
      {
        word: 'who is asking is the viewer (Viewer, ViewerContext, ViewerSession, PreviewViewer)',
        files: [...SERVER, ...COMMON, ...CLIENT],
        pattern: /[Aa]udience|AUDIENCE|[Ll]inkHolder|[Pp]ersonas?\b|PERSONA/,
        except: { 'server/src/features/auth/reauth.ts': 'a token’s audience (the JWT claim), not a viewer' },
      },
      {
        word: 'the viewer a file link is signed for (not its holder)',
        files: COURSES,
        pattern: /\bholder\b/,
      },
      {
        word: 'a lesson file’s slot (stored as role in lesson-files.repository.ts alone); kind is its media’s',
        files: [...SERVER, ...COMMON, ...CLIENT],
        pattern:
          /\.role\s*===\s*'(?:media|download)'|\brole:\s*'(?:media|download)'|'media'\s*\|\s*'download'|\bmediaKind\b|lessonFileKind/,
      },
      {
        word: 'the catalogue (catalog is SQLite’s, in store/)',
        files: [...SERVER, ...COMMON, ...CLIENT].filter((file) => !file.startsWith('server/src/store/')),
        pattern: /\b[Cc]atalog(?:\b|[A-Z_.])|[a-z]Catalog(?:\b|[A-Z_])/,
      },
      {
        word: 'a video’s poster (not a still)',
        files: [...SERVER, ...COMMON, ...CLIENT],
        pattern: /[a-z]Stills?\b|\bStills?[A-Z]|\bSTILLS?_|_STILLS?\b|\bstills\b/,
      },
      {
        word: 'a thumbnail (not a tile, nor thumb but in its stored names)',
        files: [...SERVER, ...COMMON, ...CLIENT],
        pattern:
          /\btiles?\b|[a-z]Tiles?\b|\btiles?[A-Z]|\bTiles?\b|\bTILES?_|\bTHUMB_|\bthumb[A-Z]|[a-z]Thumb\b/,
      },
    ];
    const found = avoided.flatMap(({ word, files, pattern, except }) =>
      offenders(files, pattern, except).map((at) => `${at} (${word})`),
    );
    expect(found).toEqual([]);
  });
});
