import { MantineProvider } from '@mantine/core';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { theme } from '../theme/theme';

/** Renders inside the app's Mantine theme, with transitions and portals off. */
export function renderWithMantine(ui: ReactElement): RenderResult {
  return render(
    <MantineProvider theme={theme} env="test">
      {ui}
    </MantineProvider>,
  );
}
