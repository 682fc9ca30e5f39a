import { Alert, Loader } from '@mantine/core';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';

/**
 * The item an edit page edits, cached under its area's key (`[...area, 'one', id]`, so saving refetches it with the
 * area's lists). For an id above 0 it is loaded first (a loader labelled `loading` meanwhile, the
 * refusal in red); for 0 the page makes a new item and `children` gets undefined. The form is keyed by the id, so
 * going to another item starts it afresh.
 */
export function EditedItem<T>({
  id,
  area,
  load,
  loading,
  children,
}: {
  id: number;
  area: QueryKey;
  load: (id: number, signal: AbortSignal) => Promise<T>;
  loading: string;
  children: (existing: T | undefined) => ReactNode;
}) {
  const existing = useQuery({ queryKey: [...area, 'one', id], queryFn: ({ signal }) => load(id, signal), enabled: id > 0 });
  if (id > 0 && existing.isPending) return <Loader aria-label={loading} />;
  if (existing.isError) return <Alert color="red">{existing.error.message}</Alert>;
  return <Fragment key={id}>{children(existing.data)}</Fragment>;
}
