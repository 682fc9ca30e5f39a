import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api';
import { emailStores } from '../api/emailMarketing';

interface StorePickerProps {
  value: number | null;
  onChange: (storeId: number | null) => void;
}

/** Picks one of the account's stores, choosing the first when none is chosen yet. */
export function StorePicker({ value, onChange }: StorePickerProps) {
  const stores = useQuery({ queryKey: ['email-marketing', 'stores'], queryFn: ({ signal }) => emailStores(api, signal) });
  const first = stores.data?.[0]?.id ?? null;
  useEffect(() => {
    if (value === null && first !== null) onChange(first);
  }, [value, first, onChange]);
  return (
    <Select
      label="Store"
      w={320}
      allowDeselect={false}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v === null ? null : Number(v))}
      data={(stores.data ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${s.domain})` }))}
      nothingFoundMessage="No stores yet"
    />
  );
}
