import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { visibleMenu } from '../access';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { NavMenu } from './NavMenu';

function renderMenu(path: string, tags: string[] = []) {
  const visible = visibleMenu(makeUser({ tags }), { host: 'app.pressroom.test', bulk_v3: true });
  renderWithMantine(
    <MemoryRouter initialEntries={[path]}>
      <NavMenu visible={visible} />
    </MemoryRouter>,
  );
}

describe('NavMenu', () => {
  it('links each visible item to its route and highlights the page shown', () => {
    renderMenu('/orders/detail/3');
    const allOrders = screen.getByRole('link', { name: 'All Orders' });
    expect(allOrders).toHaveAttribute('href', '/orders');
    expect(allOrders).toHaveAttribute('data-active', 'true');
    expect(screen.getByRole('link', { name: 'Referral Program' })).toHaveAttribute('href', '/referral?sort_by=sold_items');
    expect(screen.getByRole('link', { name: 'Customers' })).not.toHaveAttribute('data-active');
    expect(screen.queryByRole('link', { name: 'Invalid Address' })).not.toBeInTheDocument();
  });

  it('labels Email Marketing Beta when the tag shows it', () => {
    renderMenu('/', ['email marketing']);
    expect(screen.getByText('Email Marketing').parentElement).toHaveTextContent('Email MarketingBeta');
    expect(screen.getByRole('link', { name: 'Senders' })).toHaveAttribute('href', '/email-marketing/senders');
  });
});
