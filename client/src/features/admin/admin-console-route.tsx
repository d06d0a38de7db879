import { Suspense, useEffect, useState } from 'react';
import { ConfirmProvider } from '../../components/console/confirm-dialog';
import { LeaveGuardProvider, useConfirmLeave } from '../../components/console/leave-guard';
import { NoticeProvider } from '../../components/console/notices';
import { PasswordPromptHost } from '../../components/console/password-prompt';
import { useLogout } from '../../lib/use-logout';
import { useConfirmPassword } from './api';
import { NotBuiltPanel } from './components/not-built-panel';
import { Sidebar } from './components/sidebar';
import { DEFAULT_PANEL, PANELS, type PanelId } from './panels';

/**
 * The administrator console. The panel shown follows the sidebar selection, not the URL,
 * so /admin/dashboard is its one address.
 */
export function Component() {
  return (
    <NoticeProvider>
      <ConfirmProvider>
        <LeaveGuardProvider>
          <Console />
        </LeaveGuardProvider>
        <PasswordPrompt />
      </ConfirmProvider>
    </NoticeProvider>
  );
}

function Console() {
  const confirmLeave = useConfirmLeave();
  const [active, setActive] = useState<PanelId>(DEFAULT_PANEL);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const wide = useWideScreen();
  const logout = useLogout();

  // Escape closes the drawer, as it would any overlay.
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);
  const panel = PANELS.find((p) => p.id === active) ?? PANELS[0]!;
  const Panel = panel.component;

  return (
    <NoticeProvider>
      <ConfirmProvider>
        <div className="flex min-h-screen bg-stone-950/70">
          <Sidebar
            active={active}
            open={drawerOpen}
            // Off screen on a phone: out of the tab order and hidden from screen readers too.
            hidden={!wide && !drawerOpen}
            onLogout={async () => {
              if (await confirmLeave()) logout();
            }}
            onSelect={async (id) => {
              if (id !== active && !(await confirmLeave())) return;
              setActive(id);
              setDrawerOpen(false);
            }}
          />
          {drawerOpen && (
            <button
              type="button"
              aria-label="Close menu"
              className="fixed inset-0 z-20 bg-black/60 lg:hidden"
              onClick={() => setDrawerOpen(false)}
            />
          )}
          <div className="min-w-0 flex-1">
            <header className="sticky top-0 z-10 flex items-center gap-3 border-b border-white/10 bg-stone-950/80 px-4 py-3 backdrop-blur lg:hidden">
              <button
                type="button"
                aria-label="Open menu"
                aria-controls="admin-sidebar"
                aria-expanded={drawerOpen}
                onClick={() => setDrawerOpen(true)}
                className="rounded-lg px-2 py-1 text-xl text-stone-200 hover:bg-white/10"
              >
                ☰
              </button>
              <span className="font-semibold text-white">{panel.label}</span>
            </header>
            <main className="p-4 sm:p-6 lg:p-8">
              <Suspense fallback={<p className="text-stone-400">Loading…</p>}>
                {Panel ? <Panel key={panel.id} /> : <NotBuiltPanel key={panel.id} title={panel.label} />}
              </Suspense>
            </main>
          </div>
        </div>
        <PasswordPrompt />
      </ConfirmProvider>
    </NoticeProvider>
  );
}

/** The password dialog, checking the password with the server. */
function PasswordPrompt() {
  return <PasswordPromptHost check={useConfirmPassword()} />;
}

/** The lg breakpoint, where the sidebar stops being a drawer. */
const WIDE = '(min-width: 1024px)';

function useWideScreen(): boolean {
  const [wide, setWide] = useState(() => window.matchMedia(WIDE).matches);
  useEffect(() => {
    const query = window.matchMedia(WIDE);
    const onChange = () => setWide(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return wide;
}
