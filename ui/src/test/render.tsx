import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { theme } from '../theme/theme';

/** Renders inside the app's Mantine theme, with transitions and portals off; `rerender` keeps the theme. */
export function renderWithMantine(ui: ReactElement): RenderResult {
  return render(ui, {
    wrapper: ({ children }) => (
      <MantineProvider theme={theme} env="test">
        {children}
      </MantineProvider>
    ),
  });
}
