import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { SearchKeywordsPage } from './SearchKeywordsPage';

const page = { '/search-keyword': <SearchKeywordsPage /> };

function answer(url: URL) {
  if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([{ id: 1, name: "Sam's Print Shop" }]));
  if (url.pathname === '/api/seller/search-keywords/summary') return Promise.resolve(ok({ searches: 12, queries: 3, no_results: 1 }));
  if (url.searchParams.get('kind') === 'no_results') {
    return Promise.resolve(onePage([{ query: 'unicorn', searches: 1, no_results: 1, results: 0, last_searched_at: '2026-04-15T10:00:00Z' }]));
  }
  return Promise.resolve(
    onePage([
      { query: 'cat mug', searches: 10, no_results: 0, results: 3, last_searched_at: '2026-04-15T10:00:00Z' },
      { query: 'unicorn', searches: 1, no_results: 1, results: 0, last_searched_at: '2026-04-15T10:00:00Z' },
    ]),
  );
}

/** A first page's answer under jsdom on a loaded 2-core machine can take seconds. */
const SLOW = { timeout: 15_000 };

afterEach(() => vi.unstubAllGlobals());

describe('Search Keywords', () => {
  it('shows the top searches with what they find now, and the searches that found nothing', async () => {
    showPages('/search-keyword', page, answer);
    const top = await screen.findByTestId('keywords-top', {}, SLOW);
    const [mug, unicorn] = await within(top).findAllByTestId('keyword', {}, SLOW);
    if (!mug || !unicorn) throw new Error('two rows expected');
    expect(within(mug).getByText('cat mug')).toBeInTheDocument();
    expect(within(mug).getByText('3 products')).toBeInTheDocument();
    expect(within(unicorn).getByText('Nothing')).toBeInTheDocument();
    const none = screen.getByTestId('keywords-no_results');
    expect(await within(none).findByText('1 of 1')).toBeInTheDocument();
    expect(screen.getByTestId('keyword-summary')).toHaveTextContent('12 searches of 3 different queries; 1 search found nothing.');
  });

  it('asks for the last 30 days first, then the store and range chosen', async () => {
    const calls = showPages('/search-keyword', page, answer);
    await screen.findByTestId('keyword-summary', {}, SLOW);
    expect(calls.find((c) => c.url.pathname === '/api/seller/search-keywords')?.url.searchParams.get('date_range')).toBe('last_30_days');
    await userEvent.click(screen.getByRole('combobox', { name: 'Store' }));
    await userEvent.click(await screen.findByRole('option', { name: "Sam's Print Shop" }));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/seller/search-keywords/summary').at(-1);
      expect(last?.url.searchParams.get('store_id')).toBe('1');
    });
  });
});
