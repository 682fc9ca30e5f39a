import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider, type DataRouter } from 'react-router';
import { colorSchemeManager } from '../theme/colorSchemeManager';
import { theme } from '../theme/theme';

const schemeManager = colorSchemeManager();

interface AppProps {
  queryClient: QueryClient;
  router: DataRouter;
}

export function App({ queryClient, router }: AppProps) {
  return (
    <MantineProvider theme={theme} colorSchemeManager={schemeManager} defaultColorScheme="light">
      <Notifications position="top-right" limit={5} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
