import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { api } from './api';
import { App } from './app/App';
import { createQueryClient } from './app/queryClient';
import { signOutOnUnauthorized } from './app/sessionExpiry';
import { createRoutes } from './router/routes';

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
