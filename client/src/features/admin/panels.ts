import { type ComponentType, lazy } from 'react';

export type PanelId =
  | 'dashboard'
  | 'users'
  | 'courses'
  | 'activity'
  | 'backgrounds'
  | 'media'
  | 'payments'
  | 'site'
  | 'mail'
  | 'mongodb'
  | 'nginx'
  | 'nodejs';

export interface PanelDefinition {
  id: PanelId;
  /** The sidebar label. */
  label: string;
  /** Panels in a group are listed under that heading in the sidebar. */
  group?: 'System Settings';
  icon: string;
  /**
   * The panel, loaded on demand with React.lazy so each panel is its own chunk.
   * Absent while the feature is not built: the console then says so plainly.
   */
  component?: ComponentType;
}

/**
 * The one registry of console panels, in sidebar order. It drives both the sidebar and the
 * panel switch: adding a panel is adding an entry here.
 */
export const PANELS: PanelDefinition[] = [
  {
    id: 'dashboard',
    label: 'Dashboard',
    icon: '◧',
    component: lazy(() => import('../overview/overview-panel').then((m) => ({ default: m.OverviewPanel }))),
  },
  {
    id: 'users',
    label: 'User Management',
    icon: '☺',
    component: lazy(() =>
      import('../admin-users/user-management-panel').then((m) => ({ default: m.UserManagementPanel })),
    ),
  },
  {
    id: 'courses',
    label: 'Courses',
    icon: '✎',
    component: lazy(() =>
      import('../courses/admin/courses-panel').then((m) => ({ default: m.CoursesPanel })),
    ),
  },
  {
    id: 'activity',
    label: 'Activity',
    icon: '☰',
    component: lazy(() => import('../activity/activity-panel').then((m) => ({ default: m.ActivityPanel }))),
  },
  {
    id: 'backgrounds',
    label: 'Background Manager',
    icon: '▣',
    component: lazy(() =>
      import('../slideshow/admin/slideshow-panel').then((m) => ({ default: m.SlideshowPanel })),
    ),
  },
  {
    id: 'media',
    label: 'Media Manager',
    icon: '▤',
    component: lazy(() =>
      import('../media/media-manager-panel').then((m) => ({ default: m.MediaManagerPanel })),
    ),
  },
  {
    id: 'payments',
    label: 'Payments',
    icon: '¤',
    component: lazy(() =>
      import('../payments/admin/payments-panel').then((m) => ({ default: m.PaymentsPanel })),
    ),
  },
  {
    id: 'site',
    label: 'Site',
    icon: '✦',
    component: lazy(() => import('../site/admin/site-panel').then((m) => ({ default: m.SitePanel }))),
  },
  {
    id: 'mail',
    label: 'Mail',
    icon: '✉',
    component: lazy(() => import('../mail/admin/mail-panel').then((m) => ({ default: m.MailPanel }))),
  },
  {
    id: 'mongodb',
    label: 'MongoDB',
    group: 'System Settings',
    icon: '⛁',
    component: lazy(() => import('../database/database-panel').then((m) => ({ default: m.DatabasePanel }))),
  },
  {
    id: 'nginx',
    label: 'Nginx',
    group: 'System Settings',
    icon: '⇄',
    component: lazy(() => import('../nginx/nginx-panel').then((m) => ({ default: m.NginxPanel }))),
  },
  {
    id: 'nodejs',
    label: 'Node.js',
    group: 'System Settings',
    icon: '⬢',
    component: lazy(() =>
      import('../app-server/app-server-panel').then((m) => ({ default: m.AppServerPanel })),
    ),
  },
];

export const DEFAULT_PANEL: PanelId = 'dashboard';
