import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { stores } from '../api/stores';
import { STORES_KEY } from './keys';

/** The stores the seller may pick from (the first 100, the store filter applied by the bff), as Select options. */
export function useStoreChoices() {
  const list = useQuery({
    queryKey: [...STORES_KEY, 'choices'],
    queryFn: ({ signal }) => stores(api, 1, '', signal, 100),
  });
  const options = (list.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  const slugOf = (id: number) => list.data?.data.find((s) => s.id === id)?.slug;
  return { options, slugOf, isPending: list.isPending };
}
