import type { AdminCourse, AdminLesson } from '@common/schemas/course-views';
import { afterEach, describe, expect, it } from 'vitest';
import { openMongoStore } from '../../store/mongo/store';
import type { Store } from '../../store/store';
import { adminApi } from '../../test/courses-kit';
import { ferretDbForFile } from '../../test/ferretdb';
import { bearer, confirmed, createTestApp, createUser, readOutbox, type TestApp } from '../../test/test-app';
import type { ActivityDoc } from '../activity/activity.repository';
import type { UserDoc } from '../users/users.repository';

/**
 * What "Download my data" hands out and what "Delete my account" leaves behind: the export holds
 * the member's own records only, and after a deletion the Activity log keeps its entries about
 * the person without their e-mail addresses or names.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(openStore?: (dataDir: string) => Promise<Store>): Promise<TestApp> {
  const t = await createTestApp(
    { PUBLIC_URL: 'https://members.example.com' },
    openStore ? { openStore } : {},
  );
  cleanups.push(() => t.close());
  return t;
}

const inject = (
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers = {},
  payload?: object,
) => t.app.inject({ method, url, headers, payload });
const login = async (t: TestApp, email: string, password: string) =>
  (await inject(t, 'POST', '/api/auth/login', {}, { email, password })).json().token as string;
const activity = (t: TestApp) => t.store.collection<ActivityDoc>('activity').find({});

describe('GET /api/account/export', () => {
  it("gives a demoted administrator their own account's entries, not the records of members they edited", async () => {
    const t = await app();
    const former = await createUser(t, {
      email: 'was-admin@example.com',
      role: 'admin',
      password: 'was-pass',
    });
    const owner = await createUser(t, { email: 'owner@example.com', role: 'admin' });
    const member = await createUser(t, { name: 'Marie Curie', email: 'marie@example.com' });
    const edited = await inject(t, 'PUT', `/api/admin/users/${member.user._id}`, bearer(former.token), {
      name: 'Marie Sklodowska',
    });
    expect(edited.statusCode).toBe(200);
    await inject(t, 'PUT', '/api/account/name', bearer(former.token), { name: 'Former Admin' });
    const demoted = await inject(
      t,
      'PUT',
      `/api/admin/users/${former.user._id}`,
      await confirmed(t, owner.token),
      { role: 'user' },
    );
    expect(demoted.statusCode).toBe(200);

    const token = await login(t, 'was-admin@example.com', 'was-pass');
    const exported = await inject(t, 'GET', '/api/account/export', bearer(token));
    expect(exported.statusCode).toBe(200);
    const kinds = exported.json().activity.map((entry: { kind: string }) => entry.kind);
    expect(kinds).toContain('account.renamed');
    expect(kinds).not.toContain('user.updated');
    expect(exported.body).not.toMatch(/marie|Sklodowska/i);
  });
});

/** Each store the site can run on: SQLite, and the MongoDB adapter over the real driver (on FerretDB). */
const ferret = ferretDbForFile();
const STORES: Array<
  [string, Store['kind'], () => Promise<((dataDir: string) => Promise<Store>) | undefined>]
> = [['SQLite', 'embedded', async () => undefined]];
if (ferret) {
  STORES.push(['MongoDB (FerretDB)', 'mongodb', async () => () => openMongoStore(ferret.freshUri('site'))]);
}

/** Ada's life on the site: her own changes, an administrator's, and a bystander's entries beside them. */
async function adaOnTheSite(t: TestApp) {
  const admin = await createUser(t, { name: 'Boss', email: 'boss@example.com', role: 'admin' });
  const ada = await createUser(t, { name: 'Ada Lovelace', email: 'ada@example.com', password: 'ada-pass' });
  // Her address is the end of the bystander's: only whole addresses may go.
  const nada = await createUser(t, { name: 'Nada', email: 'nada@example.com' });
  const asAdmin = bearer(admin.token);
  const ok = async (response: Promise<{ statusCode: number; body: string }>) =>
    expect((await response).statusCode, (await response).body).toBe(200);
  await ok(inject(t, 'PUT', `/api/admin/users/${ada.user._id}`, asAdmin, { name: 'Ada King' }));
  await ok(inject(t, 'PUT', '/api/account/name', bearer(ada.token), { name: 'Ada Byron' }));
  await ok(
    inject(t, 'POST', '/api/account/email', bearer(ada.token), {
      email: 'countess@example.com',
      password: 'ada-pass',
    }),
  );
  const mail = (await readOutbox(t.dataDir, 2)).find((m) => m.to === 'countess@example.com')!;
  const token = /#token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
  await ok(inject(t, 'POST', '/api/account/confirm-email', {}, { token }));
  await ok(inject(t, 'DELETE', `/api/admin/users/${ada.user._id}/sessions`, asAdmin));
  await ok(inject(t, 'PUT', `/api/admin/users/${nada.user._id}`, asAdmin, { name: 'Nada Again' }));
  return { admin, ada, nada, adaToken: await login(t, 'countess@example.com', 'ada-pass') };
}

async function expectAdaForgotten(t: TestApp, adaId: string, entriesBefore: number) {
  const entries = await activity(t);
  // Each entry stays (one more: the deletion itself).
  expect(entries).toHaveLength(entriesBefore + 1);
  const text = JSON.stringify(entries);
  for (const trace of ['Ada Lovelace', 'Ada King', 'Ada Byron', 'countess@example.com'])
    expect(text).not.toContain(trace);
  expect(text.replaceAll('nada@example.com', '')).not.toContain('ada@example.com');
  const label = `deleted member #${adaId.slice(-6)}`;
  const hers = entries.filter((e) => e.actorId === adaId);
  // Renamed, asked for and confirmed a new address (and, deleting herself, the deletion).
  expect(hers.length).toBeGreaterThanOrEqual(3);
  for (const entry of hers) {
    expect(entry.actorEmail).toBe(label);
    expect(entry.summary.startsWith(label), entry.summary).toBe(true);
  }
  const aboutHer = entries.filter((e) => e.actorEmail === 'boss@example.com' && e.summary.includes(label));
  expect(aboutHer.map((e) => e.kind).sort()).toEqual(
    expect.arrayContaining(['sessions.ended', 'user.updated']),
  );
  // The bystander's entries are untouched.
  const nadas = entries.filter((e) => e.summary.includes('nada@example.com'));
  expect(nadas.map((e) => e.kind)).toContain('user.updated');
  expect(JSON.stringify(nadas)).toContain('Nada Again');
}

describe.each(STORES)('deleting an account anonymises the Activity log (%s)', (_label, kind, storeOf) => {
  it('by the member: every entry about them stays, as "deleted member #…", without their e-mails or names', async () => {
    const t = await app(await storeOf());
    expect(t.store.kind).toBe(kind);
    const { ada, adaToken } = await adaOnTheSite(t);
    const before = (await activity(t)).length;
    const done = await inject(t, 'POST', '/api/account/delete', bearer(adaToken), {
      password: 'ada-pass',
      confirmation: 'DELETE',
    });
    expect(done.statusCode).toBe(200);
    await expectAdaForgotten(t, ada.user._id, before);
  });

  it('by an administrator in the console', async () => {
    const t = await app(await storeOf());
    const { admin, ada } = await adaOnTheSite(t);
    const before = (await activity(t)).length;
    const done = await inject(t, 'DELETE', `/api/admin/users/${ada.user._id}`, bearer(admin.token));
    expect(done.statusCode).toBe(200);
    await expectAdaForgotten(t, ada.user._id, before);
    const listed = await inject(t, 'GET', '/api/admin/activity?pageSize=100', bearer(admin.token));
    expect(listed.json().data[0].summary).toBe(`Deleted deleted member #${ada.user._id.slice(-6)}`);
  });
});

describe.each(STORES)('"Download my data" on %s', (_label, _kind, storeOf) => {
  it('holds where the member is in each course, and their billing record without what only the site uses', async () => {
    const t = await app(await storeOf());
    const owner = await createUser(t, { role: 'admin' });
    const call = adminApi(t, owner.token);
    let course = await call<AdminCourse>('POST', '/api/admin/courses', { title: 'Breathing Basics' });
    course = await call<AdminCourse>('POST', `/api/admin/courses/${course.id}/sections`, {
      title: 'Week one',
    });
    const add = async (title: string) =>
      (
        await call<{ lesson: AdminLesson }>(
          'POST',
          `/api/admin/courses/${course.id}/sections/${course.sections[0]!.id}/lessons`,
          { title },
        )
      ).lesson.id;
    const [first, second] = [await add('Sit down'), await add('Breathe out')];
    await call('PUT', `/api/admin/courses/${course.id}`, { access: 'members', published: true });

    const member = await createUser(t, { email: 'learner@example.com' });
    const asMember = bearer(member.token);
    expect((await inject(t, 'POST', `/api/courses/lessons/${first}/complete`, asMember)).statusCode).toBe(
      200,
    );
    const position = await inject(t, 'POST', `/api/courses/lessons/${second}/position`, asMember, {
      seconds: 42.5,
    });
    expect(position.statusCode, position.body).toBe(200);
    await t.store.collection<UserDoc>('users').updateById(member.user._id, {
      membershipTier: 'paid',
      tierSource: 'stripe',
      billing: {
        customerId: 'cus_learner',
        subscriptionId: 'sub_learner',
        status: 'active',
        currentPeriodEnd: new Date('2031-01-01T00:00:00Z'),
        observedAt: new Date(),
      },
    });

    const exported = (await inject(t, 'GET', '/api/account/export', asMember)).json();
    expect(exported.courseProgress).toEqual([
      {
        courseId: course.id,
        title: 'Breathing Basics',
        slug: course.slug,
        completedLessons: [{ id: first, title: 'Sit down' }],
        positions: [{ id: second, title: 'Breathe out', seconds: 42.5 }],
        lastLesson: { id: second, title: 'Breathe out' },
        lastAt: expect.any(String),
        completedAt: null,
      },
    ]);
    expect(exported.user).toMatchObject({
      membershipTier: 'paid',
      tierSource: 'stripe',
      billing: {
        customerId: 'cus_learner',
        subscriptionId: 'sub_learner',
        status: 'active',
        currentPeriodEnd: '2031-01-01T00:00:00.000Z',
      },
    });
    expect(exported.user.billing).not.toHaveProperty('observedAt');
  });
});
