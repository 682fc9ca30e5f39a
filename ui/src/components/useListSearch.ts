import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/** List fetches wait 200 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 200;

/**
 * The search box and page of a paged list: `debounced` is the trimmed search 200 ms after the last keystroke,
 * and a new search, or a filter changed through `resetting`, goes back to page 1.
 */
export function useListSearch() {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const resetting =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return { q, search: resetting(setQ), debounced, page, setPage, resetting };
}
