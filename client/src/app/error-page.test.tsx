import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';

afterEach(cleanup);

function Broken(): never {
  throw new Error('boom');
}

function StaleChunk(): never {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/login-page-abc.js');
}

describe('ErrorBoundary and ErrorPage', () => {
  it('shows the error page, with a way back home, instead of a blank screen', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <MemoryRouter>
        <ErrorBoundary>
          <Broken />
        </ErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText(/this page ran into a problem/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Home page' }).getAttribute('href')).toBe('/');
  });

  it('asks for a reload when a page’s code is gone after a new deployment', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <MemoryRouter>
        <ErrorBoundary>
          <StaleChunk />
        </ErrorBoundary>
      </MemoryRouter>,
    );
    expect(
      screen.getByText('A newer version of the site is available. Reload the page to continue.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});
