import type { PublicUser } from '@common/schemas/user';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmProvider } from '../../../components/console/confirm-dialog';
import { queryClient } from '../../../lib/query-client';
import { ADMIN_TIER, UserRow } from './user-row';

const person = (fields: Partial<PublicUser>): PublicUser => ({
  _id: 'u1',
  name: 'Ada',
  email: 'ada@example.com',
  role: 'user',
  membershipTier: 'paid',
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

function showRow(user: PublicUser) {
  const noop = async () => {};
  render(
    <QueryClientProvider client={queryClient}>
      <ConfirmProvider>
        <table>
          <tbody>
            <UserRow
              user={user}
              editing={false}
              busy={false}
              passwordColumn={false}
              onEdit={noop}
              onCancel={noop}
              onSave={noop}
              onDelete={noop}
            />
          </tbody>
        </table>
      </ConfirmProvider>
    </QueryClientProvider>,
  );
  return screen.getAllByRole('cell').find((cell) => cell.dataset.label === 'Tier')!;
}

afterEach(cleanup);

describe('the Tier column of User Management, as the Dashboard counts', () => {
  it('shows a member’s tier', () => {
    expect(showRow(person({})).textContent).toBe('paid');
  });

  it('shows no tier for an administrator, who is counted in neither Paid nor Free Members', () => {
    const tier = showRow(person({ role: 'admin' }));
    expect(tier.textContent).not.toMatch(/paid|free/i);
    expect(within(tier).getByText(ADMIN_TIER)).toBeTruthy();
    expect(ADMIN_TIER).toMatch(/administrators are not members/);
  });
});
