import { type ComponentType, lazy } from 'react';

export type PanelId = 'dashboard' | 'users' | 'backgrounds' | 'media' | 'mongodb' | 'nginx' | 'nodejs';

export interface PanelDefinition {
  id: PanelId;
  /** The sidebar label. */
  label: string;
  /** Panels in a group are listed under that heading in the sidebar. */
  group?: 'System Settings';
  icon: string;
  component: ComponentType;
}

const notBuilt = (title: string) => lazy(() => import('./components/not-built-panel').then((m) => ({ default: m.notBuiltPanel(title) })));

/**
 * The one registry of console panels, in sidebar order. It drives both the sidebar and the
 * panel switch: adding a panel is adding an entry here.
 */
export const PANELS: PanelDefinition[] = [
  { id: 'dashboard', label: 'Dashboard', icon: '◧', component: notBuilt('Dashboard Overview') },
  { id: 'users', label: 'User Management', icon: '☺', component: notBuilt('User Management') },
  { id: 'backgrounds', label: 'Background Manager', icon: '▣', component: notBuilt('Background Manager') },
  { id: 'media', label: 'Media Manager', icon: '▤', component: notBuilt('Media Manager') },
  { id: 'mongodb', label: 'MongoDB', group: 'System Settings', icon: '⛁', component: notBuilt('MongoDB') },
  { id: 'nginx', label: 'Nginx', group: 'System Settings', icon: '⇄', component: notBuilt('Nginx') },
  { id: 'nodejs', label: 'Node.js', group: 'System Settings', icon: '⬢', component: notBuilt('Node.js') },
];

export const DEFAULT_PANEL: PanelId = 'dashboard';
