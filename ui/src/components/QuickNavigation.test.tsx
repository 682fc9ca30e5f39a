import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { MenuItemId } from '../access';
import { renderWithMantine } from '../test/render';
import { QuickNavigation } from './QuickNavigation';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

describe('QuickNavigation', () => {
  it('opens on Ctrl+G with "Go to page", offers only visible destinations and navigates', async () => {
    const visible: MenuItemId[] = ['dashboard.overview', 'dashboard.referral', 'orders.customers'];
    renderWithMantine(
      <MemoryRouter initialEntries={['/']}>
        <QuickNavigation visible={visible} />
        <Where />
      </MemoryRouter>,
    );
    const user = userEvent.setup();

    await user.keyboard('{Control>}g{/Control}');
    const search = await screen.findByPlaceholderText('Go to page');
    expect(screen.getByText('Overview')).toBeInTheDocument();
    expect(screen.getByText('Referral Program')).toBeInTheDocument();
    expect(screen.queryByText('All Orders')).not.toBeInTheDocument();

    await user.type(search, 'referral');
    const actions = Array.from(document.querySelectorAll<HTMLElement>('[data-action]'));
    expect(actions.map((action) => action.textContent)).toEqual(['Referral ProgramDashboard']);
    await user.click(actions[0]!);

    expect(screen.getByTestId('where')).toHaveTextContent('/referral?sort_by=sold_items');
  });
});
