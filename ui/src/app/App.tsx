import { MantineProvider } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider, type DataRouter } from 'react-router';
import { colorSchemeManager } from '../theme/colorSchemeManager';
import { theme } from '../theme/theme';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../feedback/toast';
import { hardReloadHotkeys } from './hardReload';

const schemeManager = colorSchemeManager();
const reloadHotkeys = hardReloadHotkeys();

interface AppProps {
  queryClient: QueryClient;
  router: DataRouter;
}

export function App({ queryClient, router }: AppProps) {
  // Shift+F5 and Ctrl+Shift+R clear local storage and hard-reload, on every screen.
  useHotkeys(reloadHotkeys, []);
  return (
    <MantineProvider theme={theme} colorSchemeManager={schemeManager} defaultColorScheme="light">
      <Notifications position="top-right" limit={TOAST_LIMIT} autoClose={TOAST_DURATION_MS} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
