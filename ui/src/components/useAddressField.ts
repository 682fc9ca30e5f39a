import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { slugify } from '../api/collections';
import type { SlugCheck } from '../api/stores';
import { SLUG } from '../storefronts/schema';
import { SEARCH_DEBOUNCE_MS } from './useListSearch';

/**
 * The address (slug) field of a page, post or category: made from `name` until the seller types one (a saved thing
 * keeps its own), and checked with `check` 200 ms after the last keystroke unless it is `saved` (the address the
 * thing already has where it is) or the field is read-only.
 */
export function useAddressField({
  name,
  initial,
  saved,
  queryKey,
  check,
  readOnly,
}: {
  name: string;
  initial: string | undefined;
  saved: string | undefined;
  queryKey: QueryKey;
  check: (slug: string, signal: AbortSignal) => Promise<SlugCheck>;
  readOnly: boolean;
}) {
  const [typed, setTyped] = useState<string | null>(initial ?? null);
  const value = typed ?? slugify(name);
  const [debounced] = useDebouncedValue(value.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const checked = useQuery({
    queryKey: [...queryKey, 'slug', debounced],
    queryFn: ({ signal }) => check(debounced, signal),
    enabled: !readOnly && SLUG.test(debounced) && debounced !== saved,
  });
  const hint = checked.data && checked.data.slug === debounced && debounced !== saved ? checked.data : null;
  return {
    value,
    slug: value.trim().toLowerCase(),
    onChange: (v: string) => setTyped(v),
    /** The field's description: whether the address is free once checked, else what an address may hold. */
    description: hint?.available ? 'This address is free.' : 'Lower-case letters, digits and hyphens.',
    /** The server's refusal of the field when there is one, else what the check found. */
    error: (refusal: string | undefined) => refusal ?? (hint && !hint.available ? hint.message : undefined),
  };
}

