import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { aliases } from './aliases.ts';
import { precompress } from './scripts/vite-precompress.ts';

const SERVER = `http://127.0.0.1:${process.env.PORT ?? 5001}`;

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: aliases },
  // CLIENT_DIST_DIR lets parallel checkouts build side by side; the server reads the same variable.
  build: { outDir: process.env.CLIENT_DIST_DIR ?? '../dist/client', emptyOutDir: true, sourcemap: true },
  // `npm run dev`: Vite serves the client with hot reload and forwards API and media calls.
  server: { port: 5173, proxy: { '/api': SERVER, '/media': SERVER } },
});
