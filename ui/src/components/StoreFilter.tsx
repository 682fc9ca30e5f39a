import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { stores } from '../api/stores';

/**
 * A report's store filter: one of the caller's stores, or all of them (''), as the API reads
 * store_id. The stores are the first page of the caller's list, which the store filter already narrows.
 */
export function StoreFilter({ value, onChange, w = 220 }: { value: string; onChange: (storeId: string) => void; w?: number }) {
  const storeList = useQuery({ queryKey: ['report-stores'], queryFn: ({ signal }) => stores(api, 1, '', signal) });
  return (
    <Select
      aria-label="Store"
      placeholder="All stores"
      data={(storeList.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      clearable
      w={w}
    />
  );
}
