import type { Lock } from '@common/schemas/course-views';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { LockNote } from './lock-note';

afterEach(cleanup);

const OFFER = {
  upgradeText: 'Every course, every week.',
  upgradeLinkLabel: 'See the Architect tier',
  upgradeLinkUrl: '/architect',
};

function note(lock: Lock, signedIn: boolean, memberOffer?: React.ReactNode) {
  render(
    <MemoryRouter>
      <LockNote lock={lock} offer={OFFER} signedIn={signedIn} memberOffer={memberOffer} />
    </MemoryRouter>,
  );
  return screen.getByTestId('lock-note');
}

describe('LockNote at a paid lock', () => {
  const paid: Lock = {
    reason: 'upgrade',
    message: 'Part of the paid membership: join, then upgrade to open it.',
  };

  it('tells a visitor why, shows the owner’s offer, and the way in: join or sign in', () => {
    const shown = note(paid, false);
    expect(shown.textContent).toContain('Part of the paid membership: join, then upgrade to open it.');
    expect(within(shown).getByTestId('upgrade-offer').textContent).toContain('Every course, every week.');
    expect(within(shown).getByRole('link', { name: 'See the Architect tier' }).getAttribute('href')).toBe(
      '/architect',
    );
    expect(within(shown).getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/join');
    expect(within(shown).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('shows a visitor a course’s own price, and joining or signing in that comes back to the course', () => {
    render(
      <MemoryRouter>
        <LockNote
          lock={paid}
          offer={OFFER}
          signedIn={false}
          coursePrice={{ amount: 4900, currency: 'gbp' }}
          returnPath="/courses/drawing-rooms"
        />
      </MemoryRouter>,
    );
    const shown = screen.getByTestId('lock-note');
    expect(shown.textContent).toContain('Or buy this course on its own for £49.00, paid once');
    expect(
      within(shown).getByRole('link', { name: 'Create an account to buy it' }).getAttribute('href'),
    ).toBe('/join?next=%2Fcourses%2Fdrawing-rooms');
    expect(within(shown).getByRole('link', { name: 'Sign in to buy it' }).getAttribute('href')).toBe(
      '/login?next=%2Fcourses%2Fdrawing-rooms',
    );
    // One way in, not two: the plain links give way to the ones that come back.
    expect(within(shown).queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it('shows a signed-in member what the page gives for them (the offer with the Upgrade button), and no sign-in', () => {
    const shown = note(paid, true, <p>the member’s offer</p>);
    expect(shown.textContent).toContain('the member’s offer');
    expect(within(shown).queryByRole('link', { name: 'Sign in' })).toBeNull();
  });

  it('shows a signed-in member the owner’s offer when the page gives nothing else', () => {
    const shown = note(paid, true);
    expect(within(shown).getByTestId('upgrade-offer').textContent).toContain('Every course, every week.');
  });
});
