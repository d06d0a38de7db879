import type { StoreKind } from './database';

/** GET /api/health: for monitors and load balancers; public. */
export interface HealthResponse {
  success: true;
  status: 'ok';
  store: StoreKind;
  uptimeSeconds: number;
}
