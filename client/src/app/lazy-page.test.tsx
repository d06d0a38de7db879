import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from './lazy-page';

afterEach(cleanup);

const Dashboard = () => <h1>Dashboard</h1>;

function loader() {
  const calls = { count: 0 };
  const load = async () => {
    calls.count += 1;
    return { Dashboard };
  };
  return { calls, Page: page(load, (m) => m.Dashboard) };
}

describe('a lazily loaded page', () => {
  it('shows the fallback until its code arrives when it was not preloaded', async () => {
    const { Page } = loader();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });

  it('renders in the very first commit once preloaded, and loads its code once', async () => {
    const { Page, calls } = loader();
    await Page.preload();
    await Page.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Page />
      </Suspense>,
    );
    // No await: a page that suspended would show the fallback here.
    expect(screen.queryByText('Loading')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(calls.count).toBe(1);
  });
});
