import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import '@mantine/tiptap/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { api } from './api';
import { App } from './app/App';
import { canReloadForChunk, reloadForChunk } from './app/chunkReload';
import { createQueryClient } from './app/queryClient';
import { signOutOnUnauthorized } from './app/sessionExpiry';
import { createRoutes } from './router/routes';

// A chunk Vite fails to preload (a deploy replaced it) reloads the tab, once a minute at most;
// otherwise the error reaches the route's error page.
window.addEventListener('vite:preloadError', (event) => {
  if (!canReloadForChunk()) return;
  event.preventDefault();
  reloadForChunk();
});

const queryClient = createQueryClient();
const router = createBrowserRouter(createRoutes(queryClient));
signOutOnUnauthorized(api, router);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
