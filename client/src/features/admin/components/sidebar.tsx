import { useSiteIdentity } from '../../../components/page/site-context';
import { PANELS, type PanelId } from '../panels';

export interface SidebarProps {
  active: PanelId;
  onSelect: (id: PanelId) => void;
  onLogout: () => void;
  /** On narrow screens the sidebar is a drawer; this says whether it is pulled out. */
  open: boolean;
  /** True while the drawer is off screen: then it is inert (no focus, not read out). */
  hidden?: boolean;
}

export function Sidebar({ active, onSelect, onLogout, open, hidden = false }: SidebarProps) {
  const site = useSiteIdentity();
  const main = PANELS.filter((panel) => !panel.group);
  const system = PANELS.filter((panel) => panel.group === 'System Settings');
  const item = (panel: (typeof PANELS)[number]) => (
    <li key={panel.id}>
      <button
        type="button"
        onClick={() => onSelect(panel.id)}
        aria-current={active === panel.id ? 'page' : undefined}
        className={`flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm transition-colors ${
          active === panel.id
            ? 'bg-accent-400/15 font-semibold text-accent-300'
            : 'text-stone-300 hover:bg-white/5 hover:text-white'
        }`}
      >
        <span aria-hidden="true" className="w-5 text-center text-base">
          {panel.icon}
        </span>
        {panel.label}
      </button>
    </li>
  );

  return (
    <aside
      id="admin-sidebar"
      inert={hidden}
      className={`fixed inset-y-0 left-0 z-30 flex w-64 flex-col border-r border-white/10 bg-stone-950/95 backdrop-blur-xl transition-transform lg:sticky lg:top-0 lg:h-screen lg:translate-x-0 ${
        open ? 'translate-x-0' : '-translate-x-full'
      }`}
    >
      <div className="px-5 py-6">
        <p className="font-display text-lg text-white">{site.name}</p>
        <p className="text-xs uppercase tracking-widest text-stone-400">Admin Console</p>
      </div>
      <nav aria-label="Console sections" className="flex-1 overflow-y-auto px-3">
        <ul className="space-y-1">{main.map(item)}</ul>
        <p className="mt-6 mb-2 px-3 text-xs font-semibold uppercase tracking-widest text-stone-400">
          System Settings
        </p>
        <ul className="space-y-1">{system.map(item)}</ul>
      </nav>
      <div className="border-t border-white/10 p-3">
        <button
          type="button"
          onClick={onLogout}
          className="w-full rounded-lg px-3 py-2.5 text-left text-sm text-stone-300 hover:bg-red-500/10 hover:text-red-300"
        >
          Logout
        </button>
      </div>
    </aside>
  );
}
