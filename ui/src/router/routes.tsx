import type { QueryClient } from '@tanstack/react-query';
import { redirect, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/FullPageLoader';
import { CenteredLayout } from '../layouts/CenteredLayout';
import { DefaultLayout } from '../layouts/DefaultLayout';
import { SECTIONS } from '../navigation/sections';
import { DashboardPage } from '../pages/DashboardPage';
import { LoginPage } from '../pages/LoginPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { SectionPage } from '../pages/SectionPage';
import { signOut } from '../session/logout';
import { loadSessionUser } from '../session/queries';
import { LOGIN_PATH } from '../session/redirects';
import { middlewareLoader } from './middlewareLoader';

/** The route table; guards are named middlewares (see middleware/registry). */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const loadUser = () => loadSessionUser(queryClient);
  return [
    {
      id: 'root',
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <FullPageLoader />,
      children: [
        {
          element: <CenteredLayout />,
          loader: middlewareLoader(['guest'], loadUser),
          children: [{ path: 'auth/login', element: <LoginPage /> }],
        },
        {
          path: 'auth/logout',
          loader: async () => {
            await signOut(queryClient);
            return redirect(LOGIN_PATH);
          },
        },
        {
          element: <DefaultLayout />,
          loader: middlewareLoader(['auth'], loadUser),
          children: [
            { index: true, element: <DashboardPage /> },
            ...SECTIONS.map((section) => ({ path: section.path, element: <SectionPage section={section} /> })),
          ],
        },
        {
          element: <CenteredLayout />,
          children: [
            { path: 'error/404', element: <NotFoundPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}
