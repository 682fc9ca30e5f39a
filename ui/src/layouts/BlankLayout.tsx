import { Box } from '@mantine/core';
import { Outlet } from 'react-router';

/** The blank frame: the page alone, with no top bar, menu or footer. */
export function BlankLayout() {
  return (
    <Box mih="100dvh">
      <Outlet />
    </Box>
  );
}
