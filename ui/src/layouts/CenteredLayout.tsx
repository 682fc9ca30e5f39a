import { Box, Center, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { ColorSchemeToggle } from '../components/ColorSchemeToggle';
import { Logo } from '../components/Logo';
import { SiteFooter } from '../components/SiteFooter';
import classes from './CenteredLayout.module.css';

interface CenteredLayoutProps {
  /** Rendered instead of the route's outlet (error pages render outside the route tree). */
  children?: ReactNode;
}

/** The centred frame of the auth and error pages. */
export function CenteredLayout({ children }: CenteredLayoutProps) {
  return (
    <Box className={classes.page}>
      <Box pos="absolute" top={16} right={16}>
        <ColorSchemeToggle />
      </Box>
      <Center mih="100dvh" p="md">
        <Stack align="center" gap="xl" w="100%" maw={440}>
          <Logo size={34} />
          {children ?? <Outlet />}
          <SiteFooter />
        </Stack>
      </Center>
    </Box>
  );
}
