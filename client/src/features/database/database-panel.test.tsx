import { DATABASE_DEFAULTS, type DatabaseStatusResponse } from '@common/schemas/database';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from '../../components/console/confirm-dialog';
import { NoticeProvider } from '../../components/console/notices';
import { queryClient } from '../../lib/query-client';
import { DatabasePanel } from './database-panel';

/*
 * Save Configuration moves the site and the server restarts on the new store: the panel waits
 * for a status from the restarted server. It reads the status's `restarting` flag, never its
 * words. The API is a stand-in of fetch.
 */

type Phase = 'before' | 'moving' | 'moved';

let phase: Phase;
let statusReads: number;

const stats = (location: string, store: 'embedded' | 'mongodb') => ({
  store,
  database: 'members',
  host: store === 'mongodb' ? 'db.example.com' : '',
  port: store === 'mongodb' ? 27017 : null,
  version: store === 'mongodb' ? '7.0.0' : 'SQLite 3.45.0',
  uptime: 10,
  location,
  environmentOverride: false,
});

const STATUS: Record<Phase, DatabaseStatusResponse> = {
  before: {
    success: true,
    connected: true,
    restarting: false,
    message: 'Connected: SQLite 3.45.0 at /data/db/site.sqlite',
    stats: stats('/data/db/site.sqlite', 'embedded'),
  },
  // The old process, connected to the old store: only the flag says a restart is coming.
  moving: {
    success: true,
    connected: true,
    restarting: true,
    message: 'Writes are paused while the site moves.',
    stats: stats('/data/db/site.sqlite', 'embedded'),
  },
  moved: {
    success: true,
    connected: true,
    restarting: false,
    message: 'Connected: MongoDB 7.0.0 at db.example.com:27017/members',
    stats: stats('db.example.com:27017/members', 'mongodb'),
  },
};

const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  phase = 'before';
  statusReads = 0;
  const payload = btoa(JSON.stringify({ user: { id: 'a1', role: 'admin' }, exp: 4_000_000_000 }));
  localStorage.setItem('token', `h.${payload}.s`);
  // jsdom has no modal dialogs: opening one only marks it open.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (path === '/api/admin/mongodb/config' && method === 'GET')
        return answer({
          success: true,
          config: { ...DATABASE_DEFAULTS, host: 'db.example.com', passwordSet: false },
          store: 'embedded',
          environmentOverride: false,
        });
      if (path === '/api/admin/mongodb/config' && method === 'POST') {
        phase = 'moving';
        return answer({
          success: true,
          message: 'MongoDB configuration saved successfully!',
          restarting: true,
        });
      }
      if (path === '/api/admin/mongodb/status') {
        statusReads += 1;
        return answer(STATUS[phase]);
      }
      if (path === '/api/admin/mongodb/databases') return answer({ success: true, databases: [] });
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

describe('the database panel after Save Configuration', () => {
  it('waits while the status says the server is restarting, whatever its words, then shows the new store', async () => {
    render(
      <QueryClientProvider client={queryClient}>
        <NoticeProvider>
          <ConfirmProvider>
            <DatabasePanel />
          </ConfirmProvider>
        </NoticeProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Connected: SQLite 3.45.0 at /data/db/site.sqlite')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Connection Settings/ }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Host').value).toBe('db.example.com'));
    fireEvent.click(screen.getByRole('button', { name: 'Save Configuration' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Move and restart' }));
    expect(await screen.findByText('Restarting on the new database…')).toBeTruthy();

    // Two readings from the old process: still restarting, so still waiting.
    const before = statusReads;
    await waitFor(() => expect(statusReads).toBeGreaterThanOrEqual(before + 2), { timeout: 4000 });
    expect(screen.getByText('Restarting on the new database…')).toBeTruthy();
    expect(screen.queryByText('Writes are paused while the site moves.')).toBeNull();

    phase = 'moved';
    expect(
      await screen.findByText('Connected: MongoDB 7.0.0 at db.example.com:27017/members', undefined, {
        timeout: 4000,
      }),
    ).toBeTruthy();
    expect(screen.queryByText('Restarting on the new database…')).toBeNull();
  }, 15_000);
});
