import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorPage } from './error-page';

afterEach(cleanup);

function Broken(): never {
  throw new Error('boom');
}

describe('ErrorPage', () => {
  it("replaces the router's default 'Unexpected Application Error!' screen", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <ErrorPage /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
    expect(screen.getByRole('link', { name: 'Home page' }).getAttribute('href')).toBe('/');
  });
});
