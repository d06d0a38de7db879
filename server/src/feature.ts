import type { FastifyInstance } from 'fastify';
import type { SpaOptions } from './http/spa';

/** A feature's routes: a Fastify plugin and the path it is registered under. */
export interface Mount {
  /** From the scope the routes go in: the root for `routes`, /api/admin or /api/system for the others. */
  prefix?: string;
  plugin: (app: FastifyInstance) => Promise<void>;
}

/**
 * One server feature as buildApp (app.ts) registers it. Each folder of features/ has one
 * `<feature>.feature.ts` whose `create<Feature>Feature(ctx, …)` builds the feature's parts from
 * the app's context (and from what earlier features hand it) and answers this. Routes are
 * registered in the order of app.ts's list: every feature's `routes`, then the administrators'
 * scope with every `adminRoutes`, the web-server panel's scope with every `systemRoutes`, then
 * every `serve`, then the web client's pages.
 */
export interface Feature {
  name: string;
  /** Under /api, public or guarded by the routes themselves (full prefix, such as `/api/auth`). */
  routes?: Mount[];
  /** Under /api/admin, behind the one hook that lets active administrators in. */
  adminRoutes?: Mount[];
  /** Under /api/system (the web-server panel), behind the same hook. */
  systemRoutes?: Mount[];
  /** What it serves outside /api (/media, /lesson-files), registered after every API route. */
  serve?: (app: FastifyInstance) => void;
  /** Fills a page of the web client with this feature's content, answering whether it sent the page. */
  fillPage?: NonNullable<SpaOptions['fill']>;
  /** Called once when the app closes (timers, child processes). */
  close?: () => Promise<void> | void;
}
