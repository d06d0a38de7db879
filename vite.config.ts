import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { aliases } from './aliases.ts';
import { pageHtml } from './scripts/vite-page-html.ts';
import { precompress } from './scripts/vite-precompress.ts';

const FORM_PARTS =
  /client\/src\/(components\/ui\/(button|text-field|password-field|form-message)|lib\/(api-client|use-hydrated)|features\/auth\/(api|auth-layout|use-submit))\./;
const SERVER = `http://127.0.0.1:${process.env.PORT ?? 5001}`;

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss(), pageHtml(), precompress()],
  resolve: { alias: aliases },
  // CLIENT_DIST_DIR lets parallel checkouts build side by side; the server reads the same variable.
  build: {
    outDir: process.env.CLIENT_DIST_DIR ?? '../dist/client',
    emptyOutDir: true,
    // Kept beside the build for the bundle checks, never linked from the code nor served (16.21).
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // The form parts every sign-in and sign-up page uses travel as one file, not six tiny
        // ones: on a phone each extra request costs a round trip before the page can show.
        codeSplitting: {
          groups: [{ name: 'forms', test: FORM_PARTS, includeDependenciesRecursively: false }],
        },
      },
    },
  },
  // `npm run dev`: Vite serves the client with hot reload and forwards API and media calls.
  server: {
    port: 5173,
    proxy: { '/api': SERVER, '/media': SERVER, '/lesson-files': SERVER, '/course-pictures': SERVER },
  },
});
