import { Select, TextInput } from '@mantine/core';
import { DATE_RANGE_LABELS, DATE_RANGE_PRESETS } from '../format/dateRange';

/** The date-range part of a list's filters, as the API reads it (date_range, and from/to for custom). */
export type DateRangeFilters = { date_range: string; from: string; to: string };

/**
 * A list's date filter: the presets (in the user's utc_offset on the server), and two day fields once
 * "Custom" is chosen. Lays out inline, inside the list's filter Group.
 */
export function DateRangeFilter({
  filters,
  setFilter,
}: {
  filters: DateRangeFilters;
  setFilter: (patch: Partial<DateRangeFilters>) => void;
}) {
  return (
    <>
      <Select
        aria-label="Date"
        placeholder="Date"
        data={DATE_RANGE_PRESETS.map((p) => ({ value: p, label: DATE_RANGE_LABELS[p] }))}
        value={filters.date_range || null}
        onChange={(value) => setFilter({ date_range: value ?? '' })}
        clearable
        w={190}
      />
      {filters.date_range === 'custom' && (
        <>
          <TextInput type="date" aria-label="From" value={filters.from} onChange={(e) => setFilter({ from: e.currentTarget.value })} />
          <TextInput type="date" aria-label="To" value={filters.to} onChange={(e) => setFilter({ to: e.currentTarget.value })} />
        </>
      )}
    </>
  );
}
