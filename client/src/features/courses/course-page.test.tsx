import type { CourseDetail, Lock, UpgradeOfferSettings } from '@common/schemas/course-views';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client';
import { CoursePage } from './course-page';

/*
 * The public course page as a signed-in free member meets a paid course: the Upgrade button when
 * the server says Stripe is connected, the owner's offer alone when not, and the way back from
 * Stripe opening the course without a reload. The API is a stand-in of fetch.
 */

const OFFER: UpgradeOfferSettings = {
  upgradeText: 'Every course, every week.',
  upgradeLinkLabel: 'See the Architect tier',
  upgradeLinkUrl: '/architect',
};
const LOCK: Lock = { reason: 'upgrade', message: 'Part of the paid membership: upgrade to open it.' };
const PLAN = {
  id: 'price_1',
  name: null,
  amount: 1200,
  currency: 'gbp',
  interval: 'month',
  intervalCount: 1,
};

function course(paid: boolean): CourseDetail {
  return {
    id: 'c1',
    slug: 'deep-work',
    title: 'Deep Work',
    summary: '',
    coverUrl: null,
    access: 'paid',
    lessonCount: 1,
    totalMinutes: 5,
    status: paid ? 'start' : 'locked',
    lock: paid ? null : LOCK,
    progress: { completed: 0, total: 1, percent: 0 },
    published: true,
    sections: [
      {
        id: 's1',
        title: 'Week 1',
        lock: null,
        lessons: [
          {
            id: 'l1',
            title: 'First steps',
            kind: 'text',
            durationMinutes: 5,
            freePreview: false,
            downloads: 0,
            completed: false,
            lock: paid ? null : LOCK,
          },
        ],
      },
    ],
    next: paid ? { id: 'l1', title: 'First steps' } : null,
    viewer: { kind: paid ? 'paid' : 'free', preview: null },
    offer: paid ? null : OFFER,
    coursePrice: null,
  };
}

interface Site {
  stripe: boolean;
  /** The member's tier as /api/payments/me answers it. */
  tier: 'free' | 'paid';
  /** The course as the server answers it, when a test needs another than course(). */
  course?: CourseDetail;
  calls: Array<{ method: string; path: string; body: unknown }>;
}

let site: Site;

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  site = { stripe: true, tier: 'free', calls: [] };
  // A signed-in member: the page reads who it is from the token's payload.
  const payload = btoa(JSON.stringify({ user: { id: 'u1', role: 'user' }, exp: 4_000_000_000 }));
  localStorage.setItem('token', `h.${payload}.s`);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      site.calls.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/courses/deep-work')
        return answer({ success: true, data: site.course ?? course(site.tier === 'paid') });
      if (path === '/api/payments/plans')
        return answer({ success: true, available: site.stripe, plans: site.stripe ? [PLAN] : [] });
      if (path === '/api/payments/me')
        return answer({
          success: true,
          data: {
            tier: site.tier,
            available: site.stripe && site.tier === 'free',
            tierSource: null,
            paidSince: null,
            subscription: null,
            canManageBilling: false,
          },
        });
      if (path === '/api/payments/checkout') return new Promise<Response>(() => {});
      return new Response('{}', { status: 404 });
    }),
  );
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
});

function open(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/courses/:slug" element={<CoursePage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const courseReads = () => site.calls.filter((call) => call.path === '/api/courses/deep-work').length;

describe('a locked paid course, as a signed-in free member', () => {
  it('offers the Upgrade button beside the owner’s words when Stripe is connected, and starts a checkout that comes back here', async () => {
    open('/courses/deep-work');
    const upgrade = await screen.findByRole('button', { name: 'Upgrade — £12.00 a month' });
    const offer = screen.getByTestId('upgrade-offer');
    expect(offer.textContent).toContain('Every course, every week.');
    // The owner's link stays, as a plain link: the Upgrade button is the main action.
    expect(screen.getByRole('link', { name: 'See the Architect tier' }).className).not.toContain('bg-accent');

    fireEvent.click(upgrade);
    expect(await screen.findByRole('button', { name: 'Going to Stripe…' })).toBeTruthy();
    expect(site.calls.find((call) => call.path === '/api/payments/checkout')).toMatchObject({
      method: 'POST',
      body: { priceId: 'price_1', returnPath: '/courses/deep-work' },
    });
  });

  it('shows the owner’s offer alone while Stripe is not connected', async () => {
    site.stripe = false;
    open('/courses/deep-work');
    const link = await screen.findByRole('link', { name: 'See the Architect tier' });
    await waitFor(() => expect(site.calls.some((call) => call.path === '/api/payments/plans')).toBe(true));
    await waitFor(() => expect(link.className).toContain('bg-accent'));
    expect(screen.getByTestId('upgrade-offer').textContent).toContain('Every course, every week.');
    expect(screen.queryByRole('button', { name: /Upgrade/ })).toBeNull();
  });

  it('opens the course in place once Stripe has confirmed the payment it comes back from', async () => {
    open('/courses/deep-work?checkout=success');
    expect(await screen.findByText(/Your payment is being confirmed with Stripe/)).toBeTruthy();
    expect(await screen.findByTestId('lock-note')).toBeTruthy();
    // No second checkout while the first is being confirmed: the owner's offer alone.
    const link = await screen.findByRole('link', { name: 'See the Architect tier' });
    await waitFor(() => expect(site.calls.some((call) => call.path === '/api/payments/plans')).toBe(true));
    await waitFor(() => expect(link.className).toContain('bg-accent'));
    expect(screen.queryByRole('button', { name: /Upgrade/ })).toBeNull();

    // Stripe's webhook made the member paid: the next reading of their tier says so.
    site.tier = 'paid';
    expect(
      await screen.findByText('Payment confirmed: welcome to the Architect Tier. Thank you!', undefined, {
        timeout: 5000,
      }),
    ).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Start: First steps' })).toBeTruthy();
    expect(screen.queryByTestId('lock-note')).toBeNull();
    expect(courseReads()).toBe(2);
  });

  it('says a cancelled checkout changed nothing, and offers the Upgrade button again', async () => {
    open('/courses/deep-work?checkout=cancelled');
    expect(await screen.findByText(/Checkout cancelled: nothing was charged/)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Upgrade — £12.00 a month' })).toBeTruthy();
    expect(screen.getByTestId('lock-note')).toBeTruthy();
  });
});

describe('what a member reads on the course page', () => {
  it('names a drip day once, in the site’s one way of writing dates', async () => {
    const DRIP: Lock = {
      reason: 'drip',
      message: 'Opens on 5 December 2026.',
      opensAt: '2026-12-05T00:00:00.000Z',
    };
    const open_ = course(true);
    const section = { ...open_.sections[0]!, lock: DRIP };
    site.course = {
      ...open_,
      sections: [{ ...section, lessons: section.lessons.map((l) => ({ ...l, lock: DRIP })) }],
    };
    open('/courses/deep-work');
    expect((await screen.findByTestId('section-lock')).textContent).toBe('Opens on 5 December 2026');
    expect(document.body.textContent).not.toMatch(/December 5|\(5 December/);
  });

  it('sends a signed-in member following the owner’s /join link to the Upgrade, never back to registration', async () => {
    site.stripe = false;
    site.course = { ...course(false), offer: { ...OFFER, upgradeLinkUrl: '/join' } };
    open('/courses/deep-work');
    const link = await screen.findByRole('link', { name: 'See the Architect tier' });
    expect(link.getAttribute('href')).toBe('/dashboard#membership-heading');
  });
});
