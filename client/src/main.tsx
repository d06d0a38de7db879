import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppShell } from './app/app-shell';
import { adoptHandedOverToken } from './lib/auth-token';
import './index.css';

adoptHandedOverToken();

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <AppShell />
    </BrowserRouter>
  </StrictMode>
);

// Public pages arrive already drawn (the build renders them to HTML): React takes over that
// markup rather than drawing it again. Other addresses arrive empty and are drawn here. Either
// way as a transition, so React works in small slices and never holds a phone's main thread long.
startTransition(() => {
  if (container.firstElementChild) hydrateRoot(container, app);
  else createRoot(container).render(app);
});
