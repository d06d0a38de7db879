import { configure } from '@testing-library/react';

/**
 * The client tier's setup file (vitest.config.ts). Testing Library's `findBy…` and `waitFor` give up
 * after 1 s by default; a page that loads its code lazily in jsdom takes longer than that on a busy
 * two-core machine running two test files at once. They still answer as soon as what they wait for
 * is there, so a longer limit costs a passing test nothing and lets a failing one fail the same way.
 */
configure({ asyncUtilTimeout: 5_000 });
