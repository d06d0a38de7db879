import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, preloadRoute, registerPreloads, usePreloadOnIntent } from './lazy-page';

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

describe('preloading a route', () => {
  it('fetches every page of a registered address, and nothing (without failing) for another', async () => {
    const { Page, calls } = loader();
    const failing = page(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      () => Dashboard,
    );
    registerPreloads({ '/somewhere': [Page], '/broken': [failing] });
    await preloadRoute('/nowhere');
    expect(calls.count).toBe(0);
    await preloadRoute('/somewhere');
    expect(calls.count).toBe(1);
    await expect(preloadRoute('/broken')).resolves.toBeUndefined();
  });
});

describe('preloading on intent', () => {
  function Links({ preload }: { preload: (pathname: string) => void }) {
    usePreloadOnIntent(preload);
    return (
      <nav>
        <a href="/join">
          <span>Create an account</span>
        </a>
        <a href="https://elsewhere.example/login">Elsewhere</a>
      </nav>
    );
  }

  it("fetches a same-site link's page when it is pointed at, focused or touched, never another site's", () => {
    const preload = vi.fn();
    render(<Links preload={preload} />);
    fireEvent.pointerOver(screen.getByText('Create an account'));
    fireEvent.focusIn(screen.getByRole('link', { name: 'Create an account' }));
    fireEvent.touchStart(screen.getByText('Create an account'));
    fireEvent.pointerOver(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(preload.mock.calls).toEqual([['/join'], ['/join'], ['/join']]);
  });
});
