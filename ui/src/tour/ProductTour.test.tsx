import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { readCookie } from '../cookies';
import { renderWithMantine } from '../test/render';
import { ProductTour, TourStop } from './ProductTour';
import { DISABLE_TOUR_COOKIE, STEP_TOUR_COOKIE, TOUR_STEPS } from './steps';

function panel(ready: boolean) {
  return renderWithMantine(
    <MemoryRouter>
      <ProductTour ready={ready}>
        {(['greeting', 'store', 'campaign', 'orders', 'payment'] as const).map((anchor) => (
          <TourStop key={anchor} anchor={anchor}>
            <span>{anchor}</span>
          </TourStop>
        ))}
      </ProductTour>
    </MemoryRouter>,
  );
}

describe('guided tour', () => {
  afterEach(() => {
    for (const name of [DISABLE_TOUR_COOKIE, STEP_TOUR_COOKIE]) document.cookie = `${name}=; path=/; max-age=0`;
  });

  it('has four steps with the campaign in 8 sub-steps, starting at greeting', () => {
    expect(TOUR_STEPS[0]!.id).toBe('greeting');
    expect([...new Set(TOUR_STEPS.slice(1).map((s) => s.anchor))]).toEqual(['store', 'campaign', 'orders', 'payment']);
    expect(TOUR_STEPS.filter((s) => s.anchor === 'campaign').map((s) => s.sub?.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('waits until it is ready', () => {
    panel(false);
    expect(screen.queryByTestId('product-tour')).toBeNull();
  });

  it('steps on, keeps the step in step_product_tour and resumes there', async () => {
    const first = panel(true);
    expect(screen.getByTestId('product-tour')).toHaveAttribute('data-step', 'greeting');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('product-tour')).toHaveAttribute('data-step', 'campaign-1');
    expect(screen.getByText('Step 1 of 8')).toBeInTheDocument();
    expect(readCookie(STEP_TOUR_COOKIE)).toBe('campaign-1');
    first.unmount();
    panel(true);
    expect(screen.getByTestId('product-tour')).toHaveAttribute('data-step', 'campaign-1');
  });

  it('"Skip tutorial" disables it for good', async () => {
    const first = panel(true);
    await userEvent.click(screen.getByRole('button', { name: 'Skip tutorial' }));
    expect(screen.queryByTestId('product-tour')).toBeNull();
    expect(readCookie(DISABLE_TOUR_COOKIE)).toBe('1');
    first.unmount();
    panel(true);
    expect(screen.queryByTestId('product-tour')).toBeNull();
  });
});
